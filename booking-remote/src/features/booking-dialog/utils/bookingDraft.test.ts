import { BOOKING_STORAGE_KEY } from 'shared-api';
import { clearDraft, loadDraft, saveDraft } from './bookingDraft';
import { createReservation } from './reservation';

beforeEach(() => window.localStorage.clear());

describe('booking draft in local storage', () => {
  it('stores currentBooking, reservedSlot, reservationExpiry, paymentSession and paymentStatus under the booking key', () => {
    const reservedSlot = createReservation(3, 'tok', Date.parse('2026-11-25T02:00:00Z'));
    saveDraft({ reservedSlot, paymentStatus: 'pending' });
    const stored = JSON.parse(window.localStorage.getItem(BOOKING_STORAGE_KEY) ?? '{}');
    expect(Object.keys(stored).sort()).toEqual(
      ['currentBooking', 'paymentSession', 'paymentStatus', 'reservationExpiry', 'reservedSlot', 'retryCount'].sort(),
    );
    expect(stored.reservationExpiry).toBe('2026-11-25T02:15:00.000Z');
    expect(loadDraft().reservedSlot).toEqual(reservedSlot);
  });

  it('gives an empty draft for junk and after clearing', () => {
    window.localStorage.setItem(BOOKING_STORAGE_KEY, '{not json');
    expect(loadDraft().paymentStatus).toBe('idle');
    saveDraft({ paymentStatus: 'processing' });
    clearDraft();
    expect(window.localStorage.getItem(BOOKING_STORAGE_KEY)).toBeNull();
  });
});
