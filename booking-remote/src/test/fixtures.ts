import { brand, type ManageView, type OwnPaymentStatus, type PaymentSession, type PublicPaymentStatus, type PublicSlot } from 'shared-api';
import { DOCUMENT_KINDS, DOCUMENT_LIMITS, type DocumentsView } from 'shared-api/documents';

/** A public slot as the server's legacy list sends it. */
export const publicSlot = (overrides: Partial<PublicSlot> = {}): PublicSlot => ({
  id: 1,
  date: '2026-11-26',
  startTime: '09:00',
  endTime: '09:30',
  isBooked: false,
  status: 'available',
  ...overrides,
});

export const legacyList = (slots: PublicSlot[]) => ({
  success: true,
  message: 'Slots retrieved',
  data: {
    slots,
    pagination: { total: slots.length, page: 1, limit: 100, totalPages: 1 },
    filters: { from: '2026-11-25', leadHours: 1, timezone: 'Asia/Singapore' },
  },
});

/** The hold token the mock server's reserve gives, and so the payment's key its initiate answers with. */
export const HOLD_TOKEN = 'hold-token-0123456789abcdef';

export const paymentSession = (overrides: Partial<PaymentSession> = {}): PaymentSession => ({
  id: 'pay_123',
  paymentId: 'pay_123',
  checkoutUrl: 'http://localhost:4000/sandbox/checkout/pay_123',
  clientReference: 'BK-2026-0001',
  expiresAt: '2026-11-25T02:15:00.000Z',
  holdToken: HOLD_TOKEN,
  fee: 7500,
  slotDate: '2026-11-26',
  slotStartTime: '9:00 AM',
  ...overrides,
});

/** The status answer for the browser that started the payment (it sent the payment's key): the whole receipt. */
export const paymentStatusResult = (
  status: OwnPaymentStatus['payment']['status'] = 'completed',
  overrides: Partial<OwnPaymentStatus> = {},
): OwnPaymentStatus => ({
  owner: true,
  payment: { id: 'pay_123', status, amount: 7500, reference: 'BK-2026-0001', method: 'fpx' },
  booking: {
    confirmed: status === 'completed',
    slotId: 1,
    date: '2026-11-26',
    startTime: '09:00',
    endTime: '09:30',
    selectedSchool: brand.schools[1].name,
    calendarSequence: 0,
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.com',
    childName: null,
    childYear: null,
  },
  emailStatus: 'sent',
  emailTimeouts: { visitorEmailTimeout: false, adminEmailTimeout: false },
  ...overrides,
});

/** The same payment as the server answers anyone without its key: no payment id, visitor or mails. */
export const publicPaymentStatus = (status: PublicPaymentStatus['payment']['status'] = 'completed'): PublicPaymentStatus => {
  const { payment, booking } = paymentStatusResult(status);
  return {
    owner: false,
    payment: { status: payment.status, amount: payment.amount, reference: payment.reference },
    booking: { confirmed: booking.confirmed, date: booking.date, startTime: booking.startTime, endTime: booking.endTime, selectedSchool: booking.selectedSchool, calendarSequence: booking.calendarSequence },
  };
};

export const ok = <T>(data: T, message = 'OK') => ({ success: true, data, message });
export const fail = (message: string, error?: string) => ({ success: false, data: null, message, ...(error ? { error } : {}) });

/** A manage link's token as the server mints them (43 base64url characters). */
export const MANAGE_TOKEN = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';

/**
 * The booking a manage link opens: BK-2026-0001 on Friday 27 November 2026, 9:00–9:30 AM GMT+8, RM 75 paid,
 * changeable until Thursday 26th 9:00 AM with a full refund (for a clock at Wednesday 25th, as the page tests set).
 */
export const manageView = (overrides: Partial<ManageView> = {}): ManageView => ({
  reference: 'BK-2026-0001',
  school: brand.schools[1].name,
  start: '2026-11-27T01:00:00.000Z',
  end: '2026-11-27T01:30:00.000Z',
  amountPaidSen: 7500,
  state: 'booked',
  refund: null,
  refundFrom: '2026-11-27T01:00:00.000Z',
  // As a policy with a full refund until 24 hours before would say them (the quote above).
  terms: { refunds: [{ percent: 100, until: '2026-11-26T01:00:00.000Z' }], changesUntil: '2026-11-26T01:00:00.000Z', now: '2026-11-25T02:00:00.000Z' },
  changeDeadline: '2026-11-26T01:00:00.000Z',
  canChange: true,
  cancelQuote: { percent: 100, amountSen: 7500 },
  calendarSequence: 0,
  childName: 'Adam Firdaus',
  childYear: 'Form 1',
  ...overrides,
});

/** The privacy consent's checkbox in any of the three languages (the WhatsApp opt-in is a checkbox of the same forms). */
export const CONSENT_BOX = { name: /parent or guardian|ibu bapa atau penjaga|家长或监护人/ };

/**
 * The visit's documents (issue 40) of the manage link's booking: Adam Firdaus, every document asked and none uploaded,
 * the registration form not ticked, open to changes.
 */
export const documentsView = (overrides: Partial<DocumentsView> = {}): DocumentsView => ({
  children: [
    {
      position: 1,
      name: 'Adam Firdaus',
      items: DOCUMENT_KINDS.map((kind) => ({ kind, state: 'toBring' as const, file: null, staffMark: null })),
    },
  ],
  registrationForm: { url: brand.registrationFormUrl, doneAt: null },
  limits: { ...DOCUMENT_LIMITS },
  editable: true,
  ...overrides,
});
