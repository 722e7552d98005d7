import { act, screen } from '@testing-library/react';
import { BOOKING_STORAGE_KEY } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { paymentSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { PaymentInProgressNotice } from './PaymentInProgressNotice';

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
});
