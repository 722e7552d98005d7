import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, brand, PAYMENT_KEY_HEADER, PAYMENT_KEYS_STORAGE_KEY } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { currentNoticeVersion } from 'shared-api/privacy';
import { axe } from '../test/axe';
import { legacyList, ok, paymentStatusResult, publicPaymentStatus, publicSlot, CONSENT_BOX } from '../test/fixtures';
import { renderApp } from '../test/render';
import { apiUrl, server, startMswServer } from '../test/server';
import HomePage from './HomePage';
import PaymentFailurePage from './PaymentFailurePage';

startMswServer();

const render = (search: string) => renderApp(<PaymentFailurePage />, { route: `/payment/failure${search}`, path: '/payment/failure' });
/** A payment id and reference as the server makes them (the page shows nothing else from its URL). */
const ID = 'pay_0123456789abcdef0123456789abcdef';
const REFERENCE = 'PAY-0123456789ABCDEF';

describe('/payment/failure', () => {
  it.each(['payment_failed', 'Payment%20failed'])('shows every text, the known error (%s) in its own words and the payment ID', (error) => {
    render(`?payment_id=${ID}&error=${error}`);
    expect(screen.getByRole('heading', { name: 'Payment Failed' })).toBeInTheDocument();
    expect(screen.getByText('We could not process your payment, and the slot has been released.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Error: Payment failed$/);
    expect(screen.getByText('the payment was declined by your bank;')).toBeInTheDocument();
    expect(screen.getByText('there was a technical issue with the payment gateway;')).toBeInTheDocument();
    expect(screen.getByText('the payment session expired.')).toBeInTheDocument();
    expect(screen.getByText(ID)).toBeInTheDocument();
  });

  it('never shows free text from its URL: an unknown error is left out, an id not of the server\'s shape is N/A', () => {
    const lure = 'Your card was charged twice, call 012-345 6789';
    render(`?payment_id=${encodeURIComponent(`Refund: call 012-345 6789`)}&error=${encodeURIComponent(lure)}`);
    expect(screen.getByRole('heading', { name: 'Payment Failed' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/012-345 6789/);
    expect(screen.getByText('N/A')).toBeInTheDocument();
    const mail = new URL(screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href') as string);
    expect(mail.searchParams.get('body')).toContain('Payment ID: N/A');
    expect(mail.searchParams.get('body')).not.toContain('012-345');
  });

  it('shows the reference the success page hands over (?reference=) as the payment\'s identifier', () => {
    render(`?reference=${REFERENCE}`);
    expect(screen.getByText(REFERENCE)).toBeInTheDocument();
  });

  it('forgets the stored booking attempt', () => {
    window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify({ paymentStatus: 'processing' }));
    render(`?payment_id=${ID}`);
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });

  it('shows N/A without a payment ID and no error box without an error', () => {
    render('');
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("'Contact Support' mails support with subject 'Payment Issue' and the payment ID in the body", () => {
    render(`?payment_id=${ID}`);
    const href = screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href') as string;
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe(brand.supportEmail);
    expect(url.searchParams.get('subject')).toBe('Payment Issue');
    expect(url.searchParams.get('body')).toContain(`Payment ID: ${ID}`);
  });

  it("'Try Again' goes home", async () => {
    const user = userEvent.setup();
    render(`?payment_id=${ID}`);
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('has no axe violations', async () => {
    const { container } = render(`?payment_id=${ID}&error=payment_failed`);
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('/payment/failure in the parent\'s language', () => {
  afterEach(() => act(() => activateLocale('en')));

  it('in Bahasa Melayu: every text, the known error in Malay, the payment ID', async () => {
    await act(() => activateLocale('ms'));
    // The spec's own URL (`error=Payment failed`): the known failure, in the page's language.
    render(`?payment_id=${ID}&error=Payment%20failed`);
    expect(screen.getByRole('heading', { name: 'Bayaran gagal' })).toBeInTheDocument();
    expect(screen.getByText('Kami tidak dapat memproses bayaran anda, dan slot tersebut telah dilepaskan.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ralat: Bayaran gagal');
    expect(screen.getByRole('heading', { name: 'Perkara ini boleh berlaku apabila' })).toBeInTheDocument();
    expect(screen.getByText('bayaran ditolak oleh bank anda;')).toBeInTheDocument();
    expect(screen.getByText('terdapat masalah teknikal pada gerbang pembayaran;')).toBeInTheDocument();
    expect(screen.getByText('sesi bayaran telah tamat.')).toBeInTheDocument();
    expect(screen.getByText('ID bayaran')).toBeInTheDocument();
    expect(screen.getByText(ID)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cuba lagi' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hubungi pihak sokongan' })).toHaveAttribute('href', expect.stringContaining(`mailto:${brand.supportEmail}`));
  });

  it('in Chinese: every text; the known error in Chinese, free text from the URL left out', async () => {
    await act(() => activateLocale('zh'));
    render('?error=payment_failed');
    expect(screen.getByRole('heading', { name: '付款失败' })).toBeInTheDocument();
    expect(screen.getByText('我们无法处理您的付款，该时段已释放。')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^错误：付款失败$/);
    expect(screen.getByText('您的银行拒绝了这笔付款；')).toBeInTheDocument();
    expect(screen.getByText('无')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '联系客服' })).toBeInTheDocument();
  });

  it.each([
    ['payment_declined', 'Ralat: Bayaran ditolak oleh bank', '错误：付款被银行拒绝'],
    ['session_expired', 'Ralat: Sesi bayaran telah tamat', '错误：付款时限已过'],
  ])('the gateway\'s code %s in Malay and in Chinese', async (code, malay, chinese) => {
    await act(() => activateLocale('ms'));
    const { unmount } = render(`?payment_id=${ID}&error=${code}`);
    expect(screen.getByRole('alert')).toHaveTextContent(malay);
    unmount();
    await act(() => activateLocale('zh'));
    render(`?payment_id=${ID}&error=${code}`);
    expect(screen.getByRole('alert')).toHaveTextContent(chinese);
  });

  it('in Chinese: a message from the URL is not shown', async () => {
    await act(() => activateLocale('zh'));
    render(`?error=${encodeURIComponent('您的卡被重复扣款，请致电 012-345 6789')}`);
    expect(screen.getByRole('heading', { name: '付款失败' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/012-345 6789/);
  });
});

describe('/payment/failure: the buttons in every language', () => {
  afterEach(() => act(() => activateLocale('en')));

  it.each([
    ['en', ['Try Again', 'Contact Support']],
    ['ms', ['Cuba lagi', 'Hubungi pihak sokongan']],
    ['zh', ['重试', '联系客服']],
  ] as const)('in %s: Try Again first, then Contact Support, in one stacked layout whatever the words\' length', async (locale, names) => {
    await act(() => activateLocale(locale));
    render(`?payment_id=${ID}&error=payment_failed`);
    const actions = screen.getByRole('button', { name: names[0] }).parentElement as HTMLElement;
    expect(Array.from(actions.children, (action) => action.textContent)).toEqual(names);
    expect(within(actions).getByRole('link', { name: names[1] })).toBeInTheDocument();
    expect(getComputedStyle(actions).flexDirection).toBe('column');
    expect(getComputedStyle(actions).flexWrap).not.toMatch(/^wrap/);
  });
});

describe('/payment/failure?error=payment_cancelled: the parent cancelled on the gateway (issue 24)', () => {
  // Wednesday 25 November 2026, 10:00 GMT+8; the payment was for Thursday 26th at 9:00 (the default public list's slot).
  const NOW = new Date('2026-11-25T10:00:00+08:00');
  const KEY = 'hold-token-0123456789abcdef';
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW, advanceTimers: true });
    window.localStorage.clear();
  });
  afterEach(async () => {
    jest.useRealTimers();
    await act(() => activateLocale('en'));
  });

  /** The payment's status: the whole receipt with its key, what anyone may see without; the keys each call sent. */
  function cancelledPayment(status: 'cancelled' | 'failed' = 'cancelled') {
    const keys: Array<string | null> = [];
    server.use(
      http.get(apiUrl('/api/payment/status/:id'), ({ request }) => {
        keys.push(request.headers.get(PAYMENT_KEY_HEADER));
        const result = request.headers.get(PAYMENT_KEY_HEADER) === KEY ? paymentStatusResult(status, { payment: { id: ID, status, amount: 7500, reference: REFERENCE, method: null } }) : publicPaymentStatus(status);
        return HttpResponse.json(ok(result));
      }),
    );
    return keys;
  }

  /** The browser that started the payment: its key, and the details typed in the dialog. */
  function paidHere() {
    window.localStorage.setItem(PAYMENT_KEYS_STORAGE_KEY, JSON.stringify([{ paymentId: ID, reference: REFERENCE, key: KEY }]));
    window.localStorage.setItem(
      BOOKING_STORAGE_KEY,
      JSON.stringify({
        currentBooking: {
          visitorName: 'Aisyah Rahman',
          visitorEmail: 'aisyah@example.com',
          visitorContactNo: '0123456789',
          selectedSchool: brand.schools[1].name,
          preferredPaymentMethod: 'fpx',
          slot: { id: 1, date: '2026-11-26', startTime: '09:00' },
          fee: 7500,
        },
        paymentStatus: 'pending',
        consent: { noticeVersion: currentNoticeVersion(), language: 'en' },
      }),
    );
  }

  const renderBoth = (error = 'payment_cancelled') =>
    renderApp(
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/payment/failure" element={<PaymentFailurePage />} />
      </Routes>,
      { route: `/payment/failure?payment_id=${ID}&error=${error}` },
    );

  it('a declined card: the spec’s failure page names the visit and books the same time again with the details and consent kept', async () => {
    cancelledPayment('failed');
    paidHere();
    const user = userEvent.setup();
    const { container } = renderBoth('payment_declined');
    expect(screen.getByRole('heading', { level: 1, name: 'Payment Failed' })).toBeInTheDocument();
    expect(screen.getByText('Payment declined by the bank')).toBeInTheDocument();
    const chosen = await screen.findByRole('region', { name: 'The time you chose' });
    expect(within(chosen).getByText(brand.schools[1].name)).toBeInTheDocument();
    expect(within(chosen).getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(await screen.findByText('This time is still free: you can book it again now.')).toBeInTheDocument();
    // The spec's causes, payment id and Contact Support stay.
    expect(screen.getByText(ID)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();

    await user.click(screen.getByRole('button', { name: 'Book this time again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
    expect(within(dialog).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(within(dialog).getByLabelText('Contact Number')).toHaveValue('012-345 6789');
    expect(within(dialog).getByRole('checkbox', CONSENT_BOX)).toBeChecked();
  });

  it('a declined card for a time taken since: Try Again goes to the timetable', async () => {
    cancelledPayment('failed');
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00', endTime: '10:30' })]))));
    const user = userEvent.setup();
    renderBoth('payment_failed');
    expect(await screen.findByText('This time is no longer free. Please choose another time.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('says nothing was charged, names the time, and while it is free books it again with what the parent typed', async () => {
    const keys = cancelledPayment();
    paidHere();
    const user = userEvent.setup();
    const { container } = renderBoth();
    expect(screen.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeInTheDocument();
    expect(screen.getByText('You cancelled the payment, so nothing was charged and no booking was made.')).toBeInTheDocument();
    // Not the failure's words: no bank decline, no causes.
    expect(screen.queryByText(/declined/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Payment Failed' })).not.toBeInTheDocument();
    const chosen = await screen.findByRole('region', { name: 'The time you chose' });
    expect(within(chosen).getByText(brand.schools[1].name)).toBeInTheDocument();
    expect(within(chosen).getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(await screen.findByText('This time is still free: you can book it again now.')).toBeInTheDocument();
    expect(keys[0]).toBe(KEY);
    expect(await axe(container)).toHaveNoViolations();

    await user.click(screen.getByRole('button', { name: 'Book this time again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
    expect(within(dialog).getByText('Thursday 26 November 2026, 9:00 AM (GMT+8)')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Visitor Name')).toHaveValue('Aisyah Rahman');
    expect(within(dialog).getByLabelText('Email Address')).toHaveValue('aisyah@example.com');
    // The phone as the parent writes it, and the consent they gave still ticked.
    expect(within(dialog).getByLabelText('Contact Number')).toHaveValue('012-345 6789');
    expect(within(dialog).getByRole('checkbox', CONSENT_BOX)).toBeChecked();
    await waitFor(() => expect(within(dialog).getByLabelText('Selected School')).toHaveValue(brand.schools[1].name));
    // The attempt itself is forgotten: the home page does not point back to it.
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });

  it('on another device (no key) it still names the time; once the time is taken it offers another time', async () => {
    cancelledPayment();
    server.use(http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ id: 2, date: '2026-11-26', startTime: '10:00', endTime: '10:30' })]))));
    const user = userEvent.setup();
    renderBoth();
    expect(await screen.findByText('This time is no longer free. Please choose another time.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Book this time again' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose another time' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('in Bahasa Melayu and in Chinese', async () => {
    cancelledPayment();
    paidHere();
    await act(() => activateLocale('ms'));
    const { unmount } = renderBoth();
    expect(screen.getByRole('heading', { level: 1, name: 'Bayaran dibatalkan' })).toBeInTheDocument();
    expect(screen.getByText('Anda telah membatalkan bayaran, jadi tiada caj dikenakan dan tiada tempahan dibuat.')).toBeInTheDocument();
    expect(await screen.findByText('Masa ini masih kosong: anda boleh menempahnya semula sekarang.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tempah masa ini semula' })).toBeInTheDocument();
    expect(screen.getByText('Khamis, 26 November 2026')).toBeInTheDocument();
    unmount();
    paidHere();
    await act(() => activateLocale('zh'));
    renderBoth();
    expect(screen.getByRole('heading', { level: 1, name: '付款已取消' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '重新预约此时段' })).toBeInTheDocument();
    expect(screen.getByText('您已取消付款，因此未产生任何扣款，也未完成预约。')).toBeInTheDocument();
  });
});
