// In-memory state behind the msw handlers: staff accounts, live tokens, slots and paid bookings, reset before each test.
import { type BookingEvent, type StaffAlerts, type StaffBooking, type StaffSlot, type User } from 'shared-api';
import { slotStart } from 'shared-api/time';

export type TestAccount = User & { password: string; createdAt?: string; lastLoginAt?: string | null; disabledAt?: string | null };

export const STAFF_EMAIL = 'staff@seriilmu.edu.my';
export const STAFF_PASSWORD = 'correct-horse';

type Db = {
  accounts: TestAccount[];
  tokens: Map<string, number>;
  slots: StaffSlot[];
  nextSlotId: number;
  nextUserId: number;
  /** What GET /staff/alerts answers: mail unsent for over an hour, refunds that keep failing, queues with failed jobs. */
  alerts: StaffAlerts;
  /** Paid bookings as GET /staff/bookings/:reference answers them (a booked slot with a reference has one). */
  bookings: StaffBooking[];
  /** What GET /staff/visits/unconfirmed received (its `day`), in order. */
  unconfirmedRequests: string[];
  /** What POST /staff/bookings/:reference/cancel received, in order. */
  cancelRequests: Array<{ reference: string; body: unknown; actor: string | null }>;
  /** What POST /staff/bookings/:reference/move received, in order. */
  moveRequests: Array<{ reference: string; body: unknown; actor: string | null }>;
  /** Calendar feeds by account id: when each was made and its token. */
  calendarFeeds: Map<number, { createdAt: string; token: string }>;
  /** Password reset links by token (account id), and the addresses POST /auth/password-reset/request was sent. */
  resetTokens: Map<string, number>;
  resetRequests: string[];
  /** Sessions (tokens) that gave the second factor; accounts that set it up. */
  steppedUp: Set<string>;
  enrolled: Set<number>;
};

const noAlerts = (): StaffAlerts => ({ stuckMail: { total: 0, items: [] }, failingRefunds: { total: 0, items: [] }, failedJobs: [], chargebacks: { total: 0, items: [] } });

export const db: Db = {
  accounts: [],
  tokens: new Map(),
  slots: [],
  nextSlotId: 1,
  nextUserId: 1,
  alerts: noAlerts(),
  bookings: [],
  unconfirmedRequests: [],
  cancelRequests: [],
  moveRequests: [],
  calendarFeeds: new Map(),
  resetTokens: new Map(),
  resetRequests: [],
  steppedUp: new Set(),
  enrolled: new Set(),
};

/** The code the fake accepts as the authenticator app's, and the recovery codes its enrolment answers. */
export const TEST_TOTP_CODE = '123456';
export const TEST_RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `ABCDE-FGH${String(i).padStart(2, '0')}`);

export function resetDb(): void {
  db.accounts = [{ id: 1, email: STAFF_EMAIL, username: 'staff', password: STAFF_PASSWORD, role: 'admin' }];
  db.tokens = new Map();
  db.slots = [];
  db.nextSlotId = 1;
  db.nextUserId = 2;
  db.alerts = noAlerts();
  db.bookings = [];
  db.unconfirmedRequests = [];
  db.cancelRequests = [];
  db.moveRequests = [];
  db.calendarFeeds = new Map();
  db.resetTokens = new Map();
  db.resetRequests = [];
  db.steppedUp = new Set();
  db.enrolled = new Set([1]);
}

/** A token the handlers accept as a logged-in staff member; an admin's has given the second factor unless `steppedUp` is false. */
export function issueToken(userId = 1, { steppedUp = true } = {}): string {
  const token = `test-token-${userId}-${db.tokens.size + 1}`;
  db.tokens.set(token, userId);
  if (steppedUp) db.steppedUp.add(token);
  return token;
}

/** Adds a slot as the staff list returns it: ISO date-time start in GMT+8. */
export function addSlot(partial: Partial<StaffSlot> & { date: string; startTime: string }): StaffSlot {
  const booked = partial.visitorName != null;
  const slot: StaffSlot = {
    id: partial.id ?? db.nextSlotId++,
    date: partial.date.length === 10 ? `${partial.date}T${partial.startTime}:00+08:00` : partial.date,
    startTime: partial.startTime,
    endTime: partial.endTime ?? '09:00',
    isBooked: partial.isBooked ?? booked,
    status: partial.status ?? (booked ? 'booked' : 'available'),
    visitorName: partial.visitorName ?? null,
    visitorEmail: partial.visitorEmail ?? null,
    visitorContactNo: partial.visitorContactNo ?? null,
    selectedSchool: partial.selectedSchool ?? null,
    childName: partial.childName ?? null,
    childYear: partial.childYear ?? null,
    bookingReference: partial.bookingReference ?? null,
    amountSen: partial.amountSen ?? null,
  };
  if (slot.id >= db.nextSlotId) db.nextSlotId = slot.id + 1;
  db.slots.push(slot);
  if (booked && slot.bookingReference && !db.bookings.some((b) => b.reference === slot.bookingReference)) {
    const start = new Date(slot.date).toISOString();
    addBooking({
      reference: slot.bookingReference,
      visitorName: slot.visitorName ?? '',
      visitorEmail: slot.visitorEmail ?? '',
      visitorContactNo: slot.visitorContactNo ?? '',
      school: slot.selectedSchool ?? '',
      childName: slot.childName,
      childYear: slot.childYear,
      start,
      end: slotStart(slot.date, slot.endTime)?.toISOString() ?? start,
      amountPaidSen: slot.amountSen ?? 0,
    });
  }
  return slot;
}

/** A history event with the fields its kind does not use left null. */
export const bookingEvent = (event: Pick<BookingEvent, 'at' | 'kind' | 'actor'> & Partial<BookingEvent>): BookingEvent => ({
  fromStart: null,
  toStart: null,
  amountSen: null,
  ...event,
});

/**
 * Adds a paid booking (booked, with its 'Booked and paid' event a week before the visit, unless given). A booking
 * added this way has no slot: addSlot with a visitor and a reference adds both.
 */
export function addBooking(partial: Partial<StaffBooking> & Pick<StaffBooking, 'reference' | 'start' | 'end'>): StaffBooking {
  const bookedAt = new Date(Date.parse(partial.start) - 7 * 24 * 3600_000).toISOString();
  const booking: StaffBooking = {
    paymentId: `pay_${partial.reference}`,
    visitorName: 'Test Parent',
    visitorEmail: 'parent@example.my',
    visitorContactNo: '0123456789',
    childName: null,
    childYear: null,
    school: 'Seri Ilmu International',
    amountPaidSen: 10000,
    state: 'booked',
    refund: null,
    history: [bookingEvent({ at: bookedAt, kind: 'booked', actor: 'parent' })],
    messages: [],
    confirmedByParentAt: null,
    whatsapp: { state: 'not_asked', at: null },
    ...partial,
  };
  db.bookings = [...db.bookings.filter((b) => b.reference !== booking.reference), booking];
  return booking;
}

/** Sets what the alerts route answers (each `total` counts the items given). */
export function setAlerts(alerts: {
  stuckMail?: StaffAlerts['stuckMail']['items'];
  failingRefunds?: StaffAlerts['failingRefunds']['items'];
  failedJobs?: StaffAlerts['failedJobs'];
  chargebacks?: StaffAlerts['chargebacks']['items'];
}): void {
  const stuckMail = alerts.stuckMail ?? [];
  const failingRefunds = alerts.failingRefunds ?? [];
  const chargebacks = alerts.chargebacks ?? [];
  db.alerts = {
    stuckMail: { total: stuckMail.length, items: stuckMail },
    failingRefunds: { total: failingRefunds.length, items: failingRefunds },
    failedJobs: alerts.failedJobs ?? [],
    chargebacks: { total: chargebacks.length, items: chargebacks },
  };
}
