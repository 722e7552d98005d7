import { act, screen } from '@testing-library/react';
import { BOOKING_STORAGE_KEY } from 'shared-api';
import { activateLocale } from 'shared-ui';
import HomePage from '../../../pages/HomePage';
import { paymentSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { startMswServer } from '../../../test/server';
import { PaymentInProgressNotice } from './PaymentInProgressNotice';

startMswServer();

const NOW = Date.parse('2026-11-25T10:00:00+08:00');

beforeEach(() => {
  window.localStorage.setItem(
    BOOKING_STORAGE_KEY,
    JSON.stringify({ paymentStatus: 'pending', paymentSession: paymentSession({ expiresAt: new Date(NOW + 60_000).toISOString() }) }),
  );
});
afterEach(async () => {
  window.localStorage.clear();
  await act(() => activateLocale('en'));
});

describe('PaymentInProgressNotice', () => {
  it.each([
    ['en', 'You have a payment in progress.', 'Check payment status'],
    ['ms', 'Anda mempunyai bayaran yang sedang diproses.', 'Semak status bayaran'],
    ['zh', '您有一笔付款正在处理中。', '查看付款状态'],
  ] as const)('points to the payment in progress (%s)', async (locale, line, link) => {
    await act(() => activateLocale(locale));
    renderApp(<PaymentInProgressNotice now={NOW} />);
    expect(screen.getByRole('status')).toHaveTextContent(line);
    expect(screen.getByRole('link', { name: link })).toHaveAttribute('href', '/payment/pending?payment_id=pay_123');
  });

  it('is on the home page when this browser keeps a booking draft (its code is fetched only then)', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify({ paymentStatus: 'pending', paymentSession: paymentSession({ expiresAt }) }));
    renderApp(<HomePage />);
    expect(await screen.findByText('You have a payment in progress.')).toBeInTheDocument();
  });

  it('is not on the home page of a browser without a draft', async () => {
    window.localStorage.clear();
    renderApp(<HomePage />);
    await screen.findByRole('heading', { name: 'Book an assessment visit' });
    expect(screen.queryByText('You have a payment in progress.')).not.toBeInTheDocument();
  });
});
