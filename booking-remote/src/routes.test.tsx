import { screen } from '@testing-library/react';
import { BOOKING_STORAGE_KEY } from 'shared-api';
import { paymentSession } from './test/fixtures';
import { renderApp } from './test/render';
import { startMswServer } from './test/server';
import BookingRoutes from './routes';

startMswServer();

// The remote's `./routes`: relative paths, mounted by the shell under its own router.
describe('booking routes', () => {
  it.each([
    ['/', 'Book an assessment visit'],
    ['/thankyou', 'No booking to show'],
    ['/nope', 'Page not found'],
    ['/waitlist/offer/x/y', 'Page not found'],
    ['/payment/failure', 'Payment Failed'],
    ['/payment/success?reference=BK-2026-0001', /Verifying Payment|Payment Successful!/],
    ['/payment/pending?payment_id=pay_123', /Processing Payment|Payment/],
    ['/booking/manage/Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE', 'Manage your booking'],
  ])('%s renders its page', async (route, heading) => {
    renderApp(<BookingRoutes />, { route });
    // Pages are lazy chunks: allow for the first import under a loaded CI machine.
    expect(await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5_000 })).toBeInTheDocument();
  });

  it('points to a payment still in progress in this browser', async () => {
    window.localStorage.setItem(
      BOOKING_STORAGE_KEY,
      JSON.stringify({ paymentStatus: 'processing', paymentSession: paymentSession({ expiresAt: new Date(Date.now() + 60_000).toISOString() }) }),
    );
    renderApp(<BookingRoutes />, { route: '/' });
    expect(await screen.findByRole('link', { name: 'Check payment status' })).toHaveAttribute('href', '/payment/pending?payment_id=pay_123');
    window.localStorage.clear();
  });
});
