import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BOOKING_STORAGE_KEY, brand } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { axe } from '../test/axe';
import { renderApp } from '../test/render';
import PaymentFailurePage from './PaymentFailurePage';

const render = (search: string) => renderApp(<PaymentFailurePage />, { route: `/payment/failure${search}`, path: '/payment/failure' });

describe('/payment/failure', () => {
  it('shows every text, the error query and the payment ID', () => {
    render('?payment_id=pay_9&error=Card%20declined');
    expect(screen.getByRole('heading', { name: 'Payment Failed' })).toBeInTheDocument();
    expect(screen.getByText('We could not process your payment, and the slot has been released.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Card declined');
    expect(screen.getByText('the payment was declined by your bank;')).toBeInTheDocument();
    expect(screen.getByText('there was a technical issue with the payment gateway;')).toBeInTheDocument();
    expect(screen.getByText('the payment session expired.')).toBeInTheDocument();
    expect(screen.getByText('pay_9')).toBeInTheDocument();
  });

  it('forgets the stored booking attempt', () => {
    window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify({ paymentStatus: 'processing' }));
    render('?payment_id=pay_9');
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });

  it('shows N/A without a payment ID and no error box without an error', () => {
    render('');
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("'Contact Support' mails support with subject 'Payment Issue' and the payment ID in the body", () => {
    render('?payment_id=pay_9');
    const href = screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href') as string;
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe(brand.supportEmail);
    expect(url.searchParams.get('subject')).toBe('Payment Issue');
    expect(url.searchParams.get('body')).toContain('Payment ID: pay_9');
  });

  it("'Try Again' goes home", async () => {
    const user = userEvent.setup();
    render('?payment_id=pay_9');
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('has no axe violations', async () => {
    const { container } = render('?payment_id=pay_9&error=Payment%20failed');
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('/payment/failure in the parent\'s language', () => {
  afterEach(() => act(() => activateLocale('en')));

  it('in Bahasa Melayu: every text, the known error in Malay, the payment ID', async () => {
    await act(() => activateLocale('ms'));
    render('?payment_id=pay_9&error=Payment%20failed');
    expect(screen.getByRole('heading', { name: 'Bayaran gagal' })).toBeInTheDocument();
    expect(screen.getByText('Kami tidak dapat memproses bayaran anda, dan slot tersebut telah dilepaskan.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ralat: Bayaran gagal');
    expect(screen.getByRole('heading', { name: 'Perkara ini boleh berlaku apabila' })).toBeInTheDocument();
    expect(screen.getByText('bayaran ditolak oleh bank anda;')).toBeInTheDocument();
    expect(screen.getByText('terdapat masalah teknikal pada gerbang pembayaran;')).toBeInTheDocument();
    expect(screen.getByText('sesi bayaran telah tamat.')).toBeInTheDocument();
    expect(screen.getByText('ID bayaran')).toBeInTheDocument();
    expect(screen.getByText('pay_9')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cuba lagi' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hubungi pihak sokongan' })).toHaveAttribute('href', expect.stringContaining(`mailto:${brand.supportEmail}`));
  });

  it("in Chinese: every text; the gateway's own words are shown as they came", async () => {
    await act(() => activateLocale('zh'));
    render('?error=Card%20declined');
    expect(screen.getByRole('heading', { name: '付款失败' })).toBeInTheDocument();
    expect(screen.getByText('我们无法处理您的付款，该时段已释放。')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('错误：Card declined');
    expect(screen.getByText('您的银行拒绝了这笔付款；')).toBeInTheDocument();
    expect(screen.getByText('无')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '联系客服' })).toBeInTheDocument();
  });
});
