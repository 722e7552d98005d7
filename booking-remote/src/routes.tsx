// Placeholder route tree of the public side; the booking-remote feature work replaces the pages.
import { Route, Routes } from 'react-router-dom';
import { api, type Envelope, type PublicListLegacy } from 'shared-api';

const slotsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPublicSlotsPlaceholder: build.query<Envelope<PublicListLegacy>, void>({
      query: () => ({ url: '/public/list', params: { limit: 100, page: 1, format: 'legacy' } }),
    }),
  }),
});

function TimetablePlaceholder() {
  const { data, isLoading, isError } = slotsApi.useGetPublicSlotsPlaceholderQuery();
  if (isLoading) return <p>Loading available slots...</p>;
  if (isError || !data) return <p role="alert">Unable to connect to server</p>;
  return (
    <ul aria-label="Available slots">
      {data.data.slots.map((s) => (
        <li key={s.id}>
          <button type="button">
            {s.date} {s.startTime}
          </button>
        </li>
      ))}
    </ul>
  );
}

export default function BookingRoutes() {
  return (
    <Routes>
      <Route index element={<TimetablePlaceholder />} />
      <Route path="thankyou" element={<h1>Your booking is complete!</h1>} />
      <Route path="payment/success" element={<h1>Verifying Payment</h1>} />
      <Route path="payment/failure" element={<h1>Payment Failed</h1>} />
      <Route path="payment/pending" element={<h1>Processing Payment</h1>} />
    </Routes>
  );
}
