// The public side's route tree, exposed as the remote's `./routes`; the shell provides store, theme, toasts and router.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import HomePage from './pages/HomePage';
import { PageLoading } from './pages/PageLoading';

// Result pages are reached from the gateway or after paying: split off the timetable's first load.
const ThankYouPage = lazy(() => import('./pages/ThankYouPage'));
const PaymentSuccessPage = lazy(() => import('./pages/PaymentSuccessPage'));
const PaymentFailurePage = lazy(() => import('./pages/PaymentFailurePage'));
const PaymentPendingPage = lazy(() => import('./pages/PaymentPendingPage'));
// Opened from a manage link (mail, success or thank-you page): its own chunk, with the manage contract.
const ManageBookingPage = lazy(() => import('./pages/ManageBookingPage'));
// The waitlist's links (mails): the entry's page and the offer's page, each a lazy chunk with the waitlist contract.
const WaitlistEntryPage = lazy(() => import('./pages/WaitlistEntryPage'));
const WaitlistOfferPage = lazy(() => import('./pages/WaitlistOfferPage'));
// An address with no page: said so, with the way back (not a blank page).
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

export default function BookingRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route index element={<HomePage />} />
        <Route path="thankyou" element={<ThankYouPage />} />
        <Route path="payment/success" element={<PaymentSuccessPage />} />
        <Route path="payment/failure" element={<PaymentFailurePage />} />
        <Route path="payment/pending" element={<PaymentPendingPage />} />
        <Route path="booking/manage/:token" element={<ManageBookingPage />} />
        <Route path="waitlist/offer/:token" element={<WaitlistOfferPage />} />
        <Route path="waitlist/:token" element={<WaitlistEntryPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
