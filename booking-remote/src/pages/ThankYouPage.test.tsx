import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { brand, PAYMENT_KEY_HEADER } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { axe } from '../test/axe';
import { rememberPayment } from '../lib/paymentKeys';
import { HOLD_TOKEN, MANAGE_TOKEN, ok, paymentSession, paymentStatusResult } from '../test/fixtures';
import { renderApp } from '../test/render';
import { apiUrl, server, startMswServer } from '../test/server';
import ThankYouPage, { type ThankYouState } from './ThankYouPage';

startMswServer();
afterEach(() => window.localStorage.clear());

const render = (state?: ThankYouState) => renderApp(<ThankYouPage />, { route: { pathname: '/thankyou', state }, path: '/thankyou' });

describe('/thankyou', () => {
  it.each([
    [undefined, 'A confirmation email with your booking details and the list of documents to bring will arrive in your inbox.'],
    ['sent', 'A confirmation email with your booking details and the list of documents to bring will arrive in your inbox.'],
    ['timeout', 'Your booking is confirmed. The confirmation email may be delayed.'],
    [
      'failed',
      'Your booking is confirmed, but we could not send the confirmation email. Please check your email (including the spam folder) or contact the school if nothing arrives within 24 hours.',
    ],
    ['pending', 'Your confirmation email will be sent shortly.'],
  ] as const)('emailStatus %s shows its message', (emailStatus, text) => {
    render(emailStatus ? { emailStatus } : { payment: paymentStatusResult('completed').payment });
    expect(screen.getByRole('heading', { name: 'Your booking is complete!' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: /registration form/ })).toHaveAttribute('href', brand.registrationFormUrl);
  });

  it('opened directly (no booking handed over) announces none: it says where a booking is seen, with the way back', async () => {
    const { container } = render(undefined);
    expect(screen.getByRole('heading', { name: 'No booking to show' })).toBeInTheDocument();
    expect(screen.queryByText('Your booking is complete!')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the timetable' })).toHaveAttribute('href', '/');
    expect(await axe(container)).toHaveNoViolations();
  });

  it('shows each timeout flag', () => {
    render({ emailStatus: 'timeout', emailTimeouts: { visitorEmailTimeout: true, adminEmailTimeout: true } });
    expect(screen.getByText('Your confirmation email may be delayed.')).toBeInTheDocument();
    expect(screen.getByText('School administrator notification may be delayed.')).toBeInTheDocument();
  });

  it('shows no flag that is not set', () => {
    render({ emailStatus: 'sent', emailTimeouts: { visitorEmailTimeout: false, adminEmailTimeout: true } });
    expect(screen.queryByText('Your confirmation email may be delayed.')).not.toBeInTheDocument();
    expect(screen.getByText('School administrator notification may be delayed.')).toBeInTheDocument();
  });

  it('shows the booking handed over by the flow, and has no axe violations', async () => {
    rememberPayment(paymentSession());
    const { payment, booking } = paymentStatusResult('completed');
    const { container } = render({ emailStatus: 'sent', payment, booking });
    expect(screen.getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(screen.getByText('BK-2026-0001')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Change or cancel this booking' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('names whose visit it is: the child and year the payment carries, then the school, date and time', () => {
    const { payment, booking } = paymentStatusResult('completed');
    render({ emailStatus: 'sent', payment, booking: { ...booking, childName: 'Adam Firdaus', childYear: 'Form 1' } });
    const visit = screen.getByRole('region', { name: 'Assessment visit for Adam Firdaus, Form 1' });
    expect(within(visit).getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(within(visit).getByText('BK-2026-0001')).toBeInTheDocument();
  });

  it('links to the manage page of the payment the flow handed over (asked once, with the payment key the flow kept)', async () => {
    rememberPayment(paymentSession());
    const requests: Array<{ body: unknown; key: string | null }> = [];
    server.use(
      http.post(apiUrl('/api/booking/manage-link'), async ({ request }) => {
        requests.push({ body: await request.json(), key: request.headers.get(PAYMENT_KEY_HEADER) });
        return HttpResponse.json(ok({ token: MANAGE_TOKEN, path: `/booking/manage/${MANAGE_TOKEN}` }));
      }),
    );
    const { payment, booking } = paymentStatusResult('completed');
    render({ emailStatus: 'sent', payment, booking });
    const link = await screen.findByRole('link', { name: 'Change or cancel this booking' });
    expect(link).toHaveAttribute('href', `/booking/manage/${MANAGE_TOKEN}`);
    expect(requests).toEqual([{ body: { paymentId: 'pay_123' }, key: HOLD_TOKEN }]);
    await userEvent.setup().click(link);
    expect(screen.getByTestId('location')).toHaveTextContent(`/booking/manage/${MANAGE_TOKEN}`);
  });

  it('with a payment this browser holds no key for: asks nothing, and says the link is in the confirmation email', async () => {
    const asked: unknown[] = [];
    server.use(
      http.post(apiUrl('/api/booking/manage-link'), async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json(ok({ token: MANAGE_TOKEN, path: `/booking/manage/${MANAGE_TOKEN}` }));
      }),
    );
    const { payment, booking } = paymentStatusResult('completed');
    render({ emailStatus: 'sent', payment, booking });
    expect(await screen.findByText('The link to change or cancel this booking is in your confirmation email.')).toBeInTheDocument();
    expect(asked).toEqual([]);
  });

  it('without the payment (opened directly) says the link is in the confirmation email', () => {
    render({ emailStatus: 'sent' });
    expect(screen.getByText('The link to change or cancel this booking is in your confirmation email.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change or cancel this booking' })).not.toBeInTheDocument();
  });
});

describe('/thankyou in the parent\'s language', () => {
  afterEach(() => act(() => activateLocale('en')));

  it('in Bahasa Melayu: the title, the mail notice, the booking and the manage link', async () => {
    await act(() => activateLocale('ms'));
    rememberPayment(paymentSession());
    const { payment, booking } = paymentStatusResult('completed');
    server.use(http.post(apiUrl('/api/booking/manage-link'), () => HttpResponse.json(ok({ token: MANAGE_TOKEN, path: `/booking/manage/${MANAGE_TOKEN}` }))));
    render({ emailStatus: 'timeout', emailTimeouts: { visitorEmailTimeout: true, adminEmailTimeout: false }, payment, booking });
    expect(screen.getByRole('heading', { name: 'Tempahan anda telah selesai!' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Tempahan anda telah disahkan. E-mel pengesahan mungkin lewat diterima.');
    expect(screen.getByText('E-mel pengesahan anda mungkin lewat diterima.')).toBeInTheDocument();
    expect(screen.getByText('Khamis, 26 November 2026')).toBeInTheDocument();
    expect(screen.getByText('9:00 pagi – 9:30 pagi (GMT+8)')).toBeInTheDocument();
    expect(screen.getByText('Sekolah Menengah Swasta Seri Ilmu')).toBeInTheDocument();
    expect(screen.getByText('Nombor rujukan')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Tukar tarikh atau batalkan tempahan ini' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Urus tempahan anda' })).toBeInTheDocument();
  });

  it('in Chinese: the title and where the manage link is without one here', async () => {
    await act(() => activateLocale('zh'));
    render({ emailStatus: 'sent' });
    expect(screen.getByRole('heading', { name: '您的预约已完成！' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('您将在收件箱中收到一封确认邮件，内含预约详情和需携带的文件清单。');
    expect(screen.getByText('改期或取消此预约的链接在您的确认邮件中。')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('重要：请在入学评估前填写报名表（在新标签页中打开）。');
    expect(screen.getByRole('button', { name: '返回首页' })).toBeInTheDocument();
  });
});
