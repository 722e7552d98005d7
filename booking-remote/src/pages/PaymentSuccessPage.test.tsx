import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { BOOKING_STORAGE_KEY, brand, PAYMENT_KEY_HEADER } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { browserNavigation } from '../lib/browserNavigation';
import { axe } from '../test/axe';
import { rememberPayment } from '../lib/paymentKeys';
import { fail, HOLD_TOKEN, MANAGE_TOKEN, ok, paymentSession, paymentStatusResult, publicPaymentStatus } from '../test/fixtures';
import { renderApp } from '../test/render';
import { apiUrl, sentPaymentKey, server, startMswServer } from '../test/server';
import PaymentSuccessPage from './PaymentSuccessPage';

startMswServer();

// Node's own timer, untouched by Jest's fake timers.
const { setTimeout: realSetTimeout } = jest.requireActual<typeof import('timers')>('timers');

const NOW = new Date('2026-11-25T10:00:00+08:00');
beforeEach(() => jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] }));
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
  window.localStorage.clear();
});

/** Records each manage-link request's body. */
const recordLinkRequests = () => {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl('/api/booking/manage-link'), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(fail('Only the browser that made this payment can get a link here.', 'FORBIDDEN'), { status: 403 });
    }),
  );
  return bodies;
};

/** This browser started the payment: the booking flow kept its key (and left its draft). */
const paidHere = () => {
  rememberPayment(paymentSession());
  window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify({ paymentStatus: 'processing', paymentSession: paymentSession() }));
};

/** The server's status answer: `own` for the caller with the payment's key, what anyone may see otherwise. */
const statusRoute = (own: () => ReturnType<typeof paymentStatusResult>, path = '/api/payment/status/reference/:reference') =>
  server.use(http.get(apiUrl(path), ({ request }) => HttpResponse.json(ok(sentPaymentKey(request) ? own() : publicPaymentStatus(own().payment.status)))));

/** A paragraph by its whole text (an email address in it is an element of its own, so it may wrap only at @ and dots). */
const sentenceMatch = (text: string) => (_: string, element: Element | null) => element?.tagName === 'P' && element.textContent === text;
const sentence = (text: string) => screen.getByText(sentenceMatch(text));

const render = (search: string) => renderApp(<PaymentSuccessPage />, { route: `/payment/success${search}`, path: '/payment/success' });

describe('/payment/success', () => {
  it('in the browser that paid: verifies by reference with the payment key and shows the whole receipt, clearing the stored booking', async () => {
    paidHere();
    const seen: Array<[string, string | null]> = [];
    server.use(
      http.get(apiUrl('/api/payment/status/reference/:reference'), ({ params, request }) => {
        seen.push([String(params.reference), request.headers.get(PAYMENT_KEY_HEADER)]);
        return HttpResponse.json(ok(sentPaymentKey(request) ? paymentStatusResult('completed') : publicPaymentStatus('completed')));
      }),
    );
    render('?reference=BK-2026-0001');
    expect(screen.getByRole('heading', { name: 'Verifying Payment' })).toBeInTheDocument();
    expect(screen.getByText(/\(1\/10\)/)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(seen).toEqual([['BK-2026-0001', HOLD_TOKEN]]);
    expect(screen.getByText('Payment ID')).toBeInTheDocument();
    expect(screen.getByText('pay_123')).toBeInTheDocument();
    expect(screen.getByText('BK-2026-0001')).toBeInTheDocument();
    expect(screen.getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(screen.getByText('9:00 AM – 9:30 AM (GMT+8)')).toBeInTheDocument();
    expect(screen.getByText(brand.schools[1].name)).toBeInTheDocument();
    expect(screen.getByText('Amount Paid: RM 75')).toBeInTheDocument();
    expect(sentence('A confirmation email has been sent to aisyah@example.com.')).toBeInTheDocument();
    for (const item of ['Parent/guardian ID', "Student's birth certificate", 'Immunization records', 'Previous academic records']) {
      expect(screen.getByText(item)).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: /registration form/ })).toHaveAttribute('href', brand.registrationFormUrl);
    expect(screen.getByRole('button', { name: 'Back to Home' })).toBeInTheDocument();
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });

  it('in the same browser after the stored booking was cleared (a reload, a print later): still the whole receipt', async () => {
    rememberPayment(paymentSession());
    render('?reference=BK-2026-0001');
    expect(await screen.findByText('pay_123')).toBeInTheDocument();
    expect(sentence('A confirmation email has been sent to aisyah@example.com.')).toBeInTheDocument();
  });

  it('on another device (the URL forwarded or bookmarked): the booking, without payment ID, email address or manage link', async () => {
    const asked = recordLinkRequests();
    render('?reference=BK-2026-0001');
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(screen.getByText('BK-2026-0001')).toBeInTheDocument();
    expect(screen.getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(screen.getByText('9:00 AM – 9:30 AM (GMT+8)')).toBeInTheDocument();
    expect(screen.getByText(brand.schools[1].name)).toBeInTheDocument();
    expect(screen.getByText('Amount Paid: RM 75')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'The payment ID and the email address are shown only in the browser that made the payment. The confirmation email has all the details.',
    );
    expect(screen.queryByText('Payment ID')).not.toBeInTheDocument();
    expect(screen.queryByText('pay_123')).not.toBeInTheDocument();
    expect(screen.queryByText(/aisyah@example\.com/)).not.toBeInTheDocument();
    expect(screen.getByText('The link to change or cancel this booking is in your confirmation email.')).toBeInTheDocument();
    expect(asked).toEqual([]);
    expect(await screen.findByRole('link', { name: 'Google Calendar' })).toBeInTheDocument();
  });

  it('says when the confirmation mail is queued or delayed (SMTP trouble) while the booking stands', async () => {
    paidHere();
    statusRoute(() => paymentStatusResult('completed', { emailStatus: 'timeout', emailTimeouts: { visitorEmailTimeout: true, adminEmailTimeout: true } }));
    render('?reference=BK-2026-0001');
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(screen.getByText('Your booking is confirmed. The confirmation email may be delayed.')).toBeInTheDocument();
    expect(screen.getByText('Your confirmation email may be delayed.')).toBeInTheDocument();
    expect(screen.getByText('School administrator notification may be delayed.')).toBeInTheDocument();
    expect(screen.queryByText(/has been sent to/)).not.toBeInTheDocument();
  });

  it('says the mail is on its way while it waits in the outbox', async () => {
    paidHere();
    statusRoute(() => paymentStatusResult('completed', { emailStatus: 'pending' }));
    render('?reference=BK-2026-0001');
    expect(await screen.findByText(sentenceMatch('A confirmation email is on its way to aisyah@example.com.'))).toBeInTheDocument();
  });

  it('offers Google Calendar, an .ics download and a working Print', async () => {
    const print = jest.spyOn(browserNavigation, 'print').mockImplementation(() => {});
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render('?reference=BK-2026-0001');
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    const google = new URL((await screen.findByRole('link', { name: 'Google Calendar' })).getAttribute('href') as string);
    expect(google.searchParams.get('dates')).toBe('20261126T010000Z/20261126T013000Z');
    const ics = await screen.findByRole('link', { name: 'Download .ics file' });
    expect(ics).toHaveAttribute('download', 'assessment-visit.ics');
    expect(decodeURIComponent(ics.getAttribute('href') as string)).toContain('DTSTART;TZID=Asia/Singapore:20261126T090000');
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('verifies by payment_id too (the pending page comes here), with the key of the payment this browser started', async () => {
    paidHere();
    const seen: Array<[string, string | null]> = [];
    server.use(
      http.get(apiUrl('/api/payment/status/:id'), ({ params, request }) => {
        seen.push([String(params.id), request.headers.get(PAYMENT_KEY_HEADER)]);
        return HttpResponse.json(ok(sentPaymentKey(request) ? paymentStatusResult('completed') : publicPaymentStatus('completed')));
      }),
    );
    render('?payment_id=pay_123');
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(seen).toEqual([['pay_123', HOLD_TOKEN]]);
    expect(screen.getByText('pay_123')).toBeInTheDocument();
  });

  it('retries every 3 seconds while not completed, counting (n/10), then times out after 10', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/api/payment/status/reference/:reference'), () => {
        calls += 1;
        return HttpResponse.json(ok(paymentStatusResult('pending')));
      }),
    );
    render('?reference=BK-2026-0001');
    await waitFor(() => expect(calls).toBe(1));
    await act(() => jest.advanceTimersByTimeAsync(3_000));
    expect(calls).toBe(2);
    expect(await screen.findByText(/\(3\/10\)/)).toBeInTheDocument();
    // Step the clock one poll at a time so React renders between polls, as it would in a browser.
    const step = () =>
      act(async () => {
        await jest.advanceTimersByTimeAsync(3_000);
        // The mocked network answers on real ticks: let it land and React render before the next poll.
        await new Promise((resolve) => realSetTimeout(resolve, 20));
      });
    for (let i = 0; i < 8; i += 1) await step();
    expect(screen.getByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument();
    expect(calls).toBe(10);
    expect(screen.getByText('Payment verification timeout')).toBeInTheDocument();
    expect(screen.getByText(/^Payment verification failed: we could not confirm your payment yet/)).toBeInTheDocument();
    for (let i = 0; i < 4; i += 1) await step();
    expect(calls).toBe(10);
  });

  it('becomes a receipt when a later retry finds the payment completed', async () => {
    let status: 'processing' | 'completed' = 'processing';
    server.use(http.get(apiUrl('/api/payment/status/reference/:reference'), () => HttpResponse.json(ok(paymentStatusResult(status)))));
    render('?reference=BK-2026-0001');
    await screen.findByText(/\(2\/10\)/);
    status = 'completed';
    await act(() => jest.advanceTimersByTimeAsync(3_000));
    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
  });

  it('request errors retry up to 10 times, then show the error state with Try Again reloading', async () => {
    const reload = jest.spyOn(browserNavigation, 'reload').mockImplementation(() => {});
    server.use(http.get(apiUrl('/api/payment/status/reference/:reference'), () => HttpResponse.json(fail('x'), { status: 500 })));
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render('?reference=BK-2026-0001');
    await act(() => jest.advanceTimersByTimeAsync(3_000 * 10));
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument();
    expect(screen.getByText('Failed to verify payment')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Back to Home' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('a failed payment redirects to the failure page with the reference', async () => {
    server.use(http.get(apiUrl('/api/payment/status/reference/:reference'), () => HttpResponse.json(ok(paymentStatusResult('failed')))));
    render('?reference=BK-2026-0001');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/payment/failure?reference=BK-2026-0001&error=payment_failed'));
  });

  it('a payment cancelled on the gateway redirects to the failure page as cancelled', async () => {
    server.use(http.get(apiUrl('/api/payment/status/reference/:reference'), () => HttpResponse.json(ok(paymentStatusResult('cancelled')))));
    render('?reference=BK-2026-0001');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/payment/failure?reference=BK-2026-0001&error=payment_cancelled'));
  });

  it("without a reference toasts 'Missing payment reference' and goes home", async () => {
    render('');
    expect(await screen.findByText('Missing payment reference')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('leads with the visit, makes adding it to the calendar the one filled action, says the terms, and keeps the payment ID quiet (issue 24)', async () => {
    paidHere();
    // Booked Friday 27th 11:00, moved later to Friday 4 December: the refund stays counted from the 27th.
    statusRoute(() =>
      paymentStatusResult('completed', {
        booking: { ...paymentStatusResult().booking, date: '2026-12-04', startTime: '11:00', endTime: '11:30', refundFrom: '2026-11-27T03:00:00.000Z' },
      }),
    );
    render('?reference=BK-2026-0001');
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    const google = await screen.findByRole('link', { name: 'Google Calendar' });
    const title = screen.getByRole('heading', { level: 1 });
    const first = title.parentElement!.querySelector('dl') as HTMLElement;
    expect(first).toHaveTextContent(
      `School${brand.schools[1].name}Address8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala LumpurOpen in MapsSchool phone03-2094 7300Booking dateFriday 4 December 2026Time11:00 AM – 11:30 AM (GMT+8)`,
    );
    const filled = (element: HTMLElement) => getComputedStyle(element).backgroundColor;
    // Print and Back to Home are both secondary now; the calendar link is the filled one.
    const secondary = filled(screen.getByRole('button', { name: 'Back to Home' }));
    expect(filled(screen.getByRole('button', { name: 'Print' }))).toBe(secondary);
    expect(filled(google)).not.toBe(secondary);
    expect(filled(screen.getByRole('link', { name: 'Download .ics file' }))).not.toBe(filled(google));
    expect(screen.getByText(/^Full refund if you cancel by Wednesday 25 November 2026, 11:00 AM \(GMT\+8\); after that no refund; changes until Thursday 3 December 2026, 11:00 AM \(GMT\+8\)\.$/)).toBeInTheDocument();
    // The payment ID comes last, after the actions.
    const id = screen.getByText('pay_123');
    expect(screen.getByRole('button', { name: 'Back to Home' }).compareDocumentPosition(id) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('heads the receipt with the visit: the child typed in this browser, the school, the date and the time in GMT+8; the payment after', async () => {
    paidHere();
    // The draft the booking dialog left: the child it was for, for this slot (the status answer does not carry the child).
    const draft = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) as string) as Record<string, unknown>;
    window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify({ ...draft, currentBooking: { childName: 'Adam Firdaus', childYear: 'Form 1', slot: { id: 1, date: '2026-11-26', startTime: '09:00' } } }));
    render('?reference=BK-2026-0001');
    const payment = await screen.findByRole('heading', { name: 'Payment Successful!' });
    const title = screen.getByRole('heading', { level: 1 });
    expect(title).toHaveTextContent('Assessment visit for Adam Firdaus, Form 1');
    // The page itself is named by the visit.
    expect(screen.getByRole('region', { name: 'Assessment visit for Adam Firdaus, Form 1' })).toHaveAttribute('data-print', 'receipt');
    const visit = title.parentElement as HTMLElement;
    expect(within(visit).getByText(brand.schools[1].name)).toBeInTheDocument();
    expect(within(visit).getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(within(visit).getByText('9:00 AM – 9:30 AM (GMT+8)')).toBeInTheDocument();
    // The payment's facts come after the visit, outside it.
    expect(within(visit).queryByText('Amount Paid: RM 75')).not.toBeInTheDocument();
    expect(title.compareDocumentPosition(payment) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(payment.compareDocumentPosition(screen.getByText('Amount Paid: RM 75')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(payment.compareDocumentPosition(screen.getByText('BK-2026-0001')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it.each([
    ['a draft for another slot', { childName: 'Someone Else', childYear: 'Year 2', slot: { id: 99, date: '2026-12-01', startTime: '10:00' } }],
    ['no draft (a reload after the receipt cleared it)', null],
  ])('with %s: the visit is headed "Your assessment visit", never another child', async (_case, currentBooking) => {
    rememberPayment(paymentSession());
    if (currentBooking) window.localStorage.setItem(BOOKING_STORAGE_KEY, JSON.stringify({ currentBooking }));
    render('?reference=BK-2026-0001');
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your assessment visit');
    expect(screen.queryByText(/Someone Else/)).not.toBeInTheDocument();
  });

  it('has no axe violations on the receipt', async () => {
    jest.useFakeTimers({ now: NOW, advanceTimers: true });
    const { container } = render('?reference=BK-2026-0001');
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    expect(await axe(container)).toHaveNoViolations();
  });

  describe('manage link', () => {
    /** Records each manage-link request: its body and the payment key it carried. */
    function linkServer(answer?: () => Response) {
      const requests: Array<{ body: unknown; key: string | null }> = [];
      server.use(
        http.post(apiUrl('/api/booking/manage-link'), async ({ request }) => {
          requests.push({ body: await request.json(), key: request.headers.get(PAYMENT_KEY_HEADER) });
          return answer ? answer() : HttpResponse.json(ok({ token: MANAGE_TOKEN, path: `/booking/manage/${MANAGE_TOKEN}` }));
        }),
      );
      return requests;
    }

    it('in the browser that paid: asks once, with the payment key, for a link to change or cancel, which opens the manage page', async () => {
      paidHere();
      const bodies = linkServer();
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      render('?reference=BK-2026-0001');
      const link = await screen.findByRole('link', { name: 'Change or cancel this booking' });
      expect(link).toHaveAttribute('href', `/booking/manage/${MANAGE_TOKEN}`);
      expect(screen.getByRole('heading', { name: 'Manage your booking' })).toBeInTheDocument();
      expect(bodies).toEqual([{ body: { paymentId: 'pay_123' }, key: HOLD_TOKEN }]);
      expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
      await user.click(link);
      expect(screen.getByTestId('location')).toHaveTextContent(`/booking/manage/${MANAGE_TOKEN}`);
      expect(bodies).toHaveLength(1);
    });

    it.each([
      ['no stored payment (another device)', null],
      ['a stored payment that is not this receipt', paymentSession({ id: 'pay_other', paymentId: 'pay_other', clientReference: 'BK-2026-0002', holdToken: 'other-hold-token' })],
    ])('with %s: no request, and says the link is in the confirmation email', async (_case, stored) => {
      if (stored) rememberPayment(stored);
      const bodies = linkServer();
      render('?reference=BK-2026-0001');
      expect(await screen.findByText('The link to change or cancel this booking is in your confirmation email.')).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Change or cancel this booking' })).not.toBeInTheDocument();
      expect(bodies).toEqual([]);
    });

    it('when the server gives no link (too many, not booked), points to the email instead', async () => {
      paidHere();
      linkServer(() => HttpResponse.json(fail('Too many links for this booking.', 'RATE_LIMITED'), { status: 429 }));
      render('?reference=BK-2026-0001');
      expect(await screen.findByText('The link to change or cancel this booking is in your confirmation email.')).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Change or cancel this booking' })).not.toBeInTheDocument();
    });
  });
});

describe('/payment/success in the parent\'s language', () => {
  afterEach(() => act(() => activateLocale('en')));

  it('names the child the server has for the payment (a reload, no draft), with the year in the page\'s language', async () => {
    await act(() => activateLocale('ms'));
    rememberPayment(paymentSession());
    statusRoute(() => {
      const result = paymentStatusResult();
      return { ...result, booking: { ...result.booking, childName: 'Adam Firdaus', childYear: 'Form 1' } };
    });
    render('?reference=BK-2026-0001');
    await screen.findByRole('heading', { name: 'Bayaran berjaya!' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Adam Firdaus, Tingkatan 1');
  });

  it('in Bahasa Melayu: the receipt, the date, the amount, the school and what to bring', async () => {
    await act(() => activateLocale('ms'));
    paidHere();
    render('?reference=BK-2026-0001');
    expect(screen.getByRole('heading', { name: 'Mengesahkan bayaran' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Bayaran berjaya!' })).toBeInTheDocument();
    expect(screen.getByText('Tarikh tempahan')).toBeInTheDocument();
    expect(screen.getByText('Khamis, 26 November 2026')).toBeInTheDocument();
    expect(screen.getByText('9:00 pagi – 9:30 pagi (GMT+8)')).toBeInTheDocument();
    expect(screen.getByText('Sekolah Menengah Swasta Seri Ilmu')).toBeInTheDocument();
    expect(screen.getByText('Jumlah dibayar: RM75')).toBeInTheDocument();
    expect(sentence('E-mel pengesahan telah dihantar kepada aisyah@example.com.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Perkara yang perlu dibawa' })).toBeInTheDocument();
    for (const item of ['Kad pengenalan ibu bapa/penjaga', 'Sijil kelahiran pelajar', 'Rekod imunisasi', 'Rekod akademik terdahulu']) {
      expect(screen.getByText(item)).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'borang pendaftaran (dibuka dalam tab baharu)' })).toHaveAttribute('href', brand.registrationFormUrl);
    expect(screen.getByRole('note')).toHaveTextContent('Penting: sila isi borang pendaftaran (dibuka dalam tab baharu) sebelum lawatan penilaian.');
    expect(screen.getByRole('button', { name: 'Kembali ke laman utama' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cetak' })).toBeInTheDocument();
  });

  it('in Bahasa Melayu: the calendar event is in Malay too', async () => {
    await act(() => activateLocale('ms'));
    render('?reference=BK-2026-0001');
    const google = new URL((await screen.findByRole('link', { name: 'Google Calendar' })).getAttribute('href') as string);
    expect(google.searchParams.get('text')).toBe('Lawatan penilaian: Sekolah Menengah Swasta Seri Ilmu');
    expect(google.searchParams.get('details')).toContain('Sila bawa: Kad pengenalan ibu bapa/penjaga');
    const ics = decodeURIComponent((await screen.findByRole('link', { name: 'Muat turun fail .ics' })).getAttribute('href') as string);
    expect(ics.replace(/\r\n /g, '')).toContain('SUMMARY:Lawatan penilaian: Sekolah Menengah Swasta Seri Ilmu');
  });

  it('in Chinese: the receipt, the date, the amount and what to bring', async () => {
    await act(() => activateLocale('zh'));
    paidHere();
    render('?reference=BK-2026-0001');
    expect(await screen.findByRole('heading', { name: '付款成功！' })).toBeInTheDocument();
    expect(screen.getByText('2026年11月26日 星期四')).toBeInTheDocument();
    expect(screen.getByText('上午9:00 – 上午9:30（GMT+8）')).toBeInTheDocument();
    expect(screen.getByText('Seri Ilmu 私立中学')).toBeInTheDocument();
    expect(screen.getByText('已付金额：RM75')).toBeInTheDocument();
    expect(sentence('确认邮件已发送至 aisyah@example.com。')).toBeInTheDocument();
    for (const item of ['家长/监护人身份证件', '学生出生证明', '疫苗接种记录', '以往的学业成绩记录']) {
      expect(screen.getByText(item)).toBeInTheDocument();
    }
    expect(await screen.findByRole('link', { name: 'Google 日历' })).toBeInTheDocument();
  });

  it.each([
    ['ms', 'Bayaran berjaya!', 'ID bayaran dan alamat e-mel hanya dipaparkan dalam pelayar yang membuat bayaran. E-mel pengesahan mengandungi semua butiran.'],
    ['zh', '付款成功！', '付款编号和电子邮件地址仅显示在完成付款的浏览器中。确认邮件包含全部详情。'],
  ] as const)('in %s on another device: the booking, and why personal details are not shown', async (locale, title, why) => {
    await act(() => activateLocale(locale));
    render('?reference=BK-2026-0001');
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(why);
    expect(screen.queryByText(/aisyah@example\.com/)).not.toBeInTheDocument();
  });

  it('in Chinese: a verification that times out says so in Chinese', async () => {
    await act(() => activateLocale('zh'));
    server.use(http.get(apiUrl('/api/payment/status/reference/:reference'), () => HttpResponse.json(fail('x'), { status: 500 })));
    render('?reference=BK-2026-0001');
    expect(screen.getByText('请稍候，我们正在向银行确认您的付款（1/10）')).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(3_000 * 10));
    expect(await screen.findByRole('heading', { name: '核实失败' })).toBeInTheDocument();
    expect(screen.getByText('无法核实付款')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
  });

  it.each([
    ['en', 'Payment Successful!', ['Print', 'Back to Home']],
    ['ms', 'Bayaran berjaya!', ['Cetak', 'Kembali ke laman utama']],
    ['zh', '付款成功！', ['打印', '返回首页']],
  ] as const)('in %s: the receipt\'s buttons in one order and one stacked layout, whatever the words\' length', async (locale, title, names) => {
    await act(() => activateLocale(locale));
    render('?reference=BK-2026-0001');
    await screen.findByRole('heading', { name: title });
    const actions = screen.getByRole('button', { name: names[0] }).parentElement as HTMLElement;
    expect(within(actions).getAllByRole('button').map((button) => button.textContent)).toEqual(names);
    expect(getComputedStyle(actions).flexDirection).toBe('column');
    expect(getComputedStyle(actions).flexWrap).not.toMatch(/^wrap/);
  });
});


describe('/payment/success for brothers and sisters (issue 37)', () => {
  it('the paying browser sees every child with what was paid for each, the sibling discount said', async () => {
    paidHere();
    const base = paymentStatusResult('completed');
    const children = [
      { position: 1, childName: 'Adam Firdaus', childYear: 'Form 1', selectedSchool: brand.schools[1].name, feeSen: 7500, discountSen: 0, amountSen: 7500, cancelled: false, refundSen: null },
      { position: 2, childName: 'Siti Hajar', childYear: 'Year 1', selectedSchool: brand.schools[0].name, feeSen: 5000, discountSen: 500, amountSen: 4500, cancelled: false, refundSen: null },
    ];
    statusRoute(() => ({ ...base, payment: { ...base.payment, amount: 12000 }, booking: { ...base.booking, childName: 'Adam Firdaus', childYear: 'Form 1', children } }));
    render('?reference=BK-2026-0001');
    const list = await screen.findByLabelText('Children');
    expect(within(list).getByText(/Adam Firdaus, Form 1, Seri Ilmu Private Secondary: RM 75/)).toBeInTheDocument();
    expect(within(list).getByText(/Siti Hajar, Year 1, Seri Ilmu Private Primary: RM 50 less RM 5 sibling discount = RM 45/)).toBeInTheDocument();
    // One place for the booking: the first child's school's, said because the schools are at different addresses.
    expect(screen.getByText(/^All your children are seen together at Seri Ilmu Private Secondary, /)).toBeInTheDocument();
  });
});
