import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { activateLocale } from 'shared-ui';
import { axe } from '../test/axe';
import { ok, paymentStatusResult, publicPaymentStatus } from '../test/fixtures';
import { renderApp } from '../test/render';
import { apiUrl, server, startMswServer } from '../test/server';
import PaymentPendingPage from './PaymentPendingPage';

startMswServer();

const NOW = new Date('2026-11-25T10:00:00+08:00');
beforeEach(() => jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] }));
afterEach(() => jest.useRealTimers());

const render = (search: string) => renderApp(<PaymentPendingPage />, { route: `/payment/pending${search}`, path: '/payment/pending' });

describe('/payment/pending', () => {
  it('counts down from 5:00 and polls every 5 seconds', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/api/payment/status/:id'), () => {
        calls += 1;
        return HttpResponse.json(ok(paymentStatusResult('processing')));
      }),
    );
    render('?payment_id=pay_123');
    expect(screen.getByRole('heading', { name: 'Processing Payment' })).toBeInTheDocument();
    expect(screen.getByText('5:00')).toBeInTheDocument();
    await waitFor(() => expect(calls).toBe(1));
    await act(() => jest.advanceTimersByTimeAsync(5_000));
    expect(screen.getByText('4:55')).toBeInTheDocument();
    expect(calls).toBe(2);
    await act(() => jest.advanceTimersByTimeAsync(10_000));
    expect(calls).toBe(4);
  });

  it('after 300 seconds shows the slow state with Refresh Status and Back to Home', async () => {
    let calls = 0;
    server.use(
      http.get(apiUrl('/api/payment/status/:id'), () => {
        calls += 1;
        return HttpResponse.json(ok(paymentStatusResult('processing')));
      }),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render('?payment_id=pay_123');
    await act(() => jest.advanceTimersByTimeAsync(300_000));
    expect(screen.getByRole('heading', { name: 'Payment Taking Longer Than Expected' })).toBeInTheDocument();
    expect(screen.getByText('Still Processing')).toBeInTheDocument();
    const before = calls;
    await user.click(screen.getByRole('button', { name: 'Refresh Status' }));
    await waitFor(() => expect(calls).toBe(before + 1));
    await user.click(screen.getByRole('button', { name: 'Back to Home' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('goes to the success page when the payment completes', async () => {
    let status: 'processing' | 'completed' = 'processing';
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult(status)))));
    render('?payment_id=pay_123');
    await act(() => jest.advanceTimersByTimeAsync(100));
    status = 'completed';
    await act(() => jest.advanceTimersByTimeAsync(5_000));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/payment/success?payment_id=pay_123'));
  });

  it('goes to the failure page with the code of the error (the page has the words) when the payment fails', async () => {
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(publicPaymentStatus('failed')))));
    render('?payment_id=pay_123');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/payment/failure?payment_id=pay_123&error=payment_failed'));
  });

  it('a payment cancelled on the gateway goes to the failure page as cancelled (nothing charged), not as a failure', async () => {
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(publicPaymentStatus('cancelled')))));
    render('?payment_id=pay_123');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/payment/failure?payment_id=pay_123&error=payment_cancelled'));
  });

  it('has no axe violations', async () => {
    // axe needs running timers, and the countdown ticks while it runs: outside act, on purpose.
    jest.useFakeTimers({ now: NOW, advanceTimers: true });
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const { container } = render('?payment_id=pay_123');
      expect(await axe(container)).toHaveNoViolations();
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    }
  });
});

describe('/payment/pending in the parent\'s language', () => {
  afterEach(() => act(() => activateLocale('en')));

  it('in Chinese: the countdown and, once slow, the still-processing notice', async () => {
    await act(() => activateLocale('zh'));
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('processing')))));
    render('?payment_id=pay_123');
    expect(screen.getByRole('heading', { name: '正在处理付款' })).toBeInTheDocument();
    expect(screen.getByText('请保持此页面打开，我们正在等待您的银行确认付款。')).toBeInTheDocument();
    expect(screen.getByText(/^剩余时间：/)).toHaveTextContent('剩余时间：5:00不超过 5 分钟');
    await act(() => jest.advanceTimersByTimeAsync(300_000));
    expect(await screen.findByRole('heading', { name: '付款处理时间比预期长' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('仍在处理中：您的银行尚未确认这笔付款。');
    expect(screen.getByRole('button', { name: '刷新状态' })).toBeInTheDocument();
  });

  it('in Bahasa Melayu: the page and its screen-reader countdown', async () => {
    await act(() => activateLocale('ms'));
    server.use(http.get(apiUrl('/api/payment/status/:id'), () => HttpResponse.json(ok(paymentStatusResult('processing')))));
    render('?payment_id=pay_123');
    expect(screen.getByRole('heading', { name: 'Memproses bayaran' })).toBeInTheDocument();
    expect(screen.getByText('5 minit atau kurang')).toBeInTheDocument();
  });
});
