import { brand, type ManageView, type PaymentSession, type PaymentStatusResult, type PublicSlot } from 'shared-api';

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

export const paymentSession = (overrides: Partial<PaymentSession> = {}): PaymentSession => ({
  id: 'pay_123',
  paymentId: 'pay_123',
  checkoutUrl: 'http://localhost:4000/sandbox/checkout/pay_123',
  clientReference: 'BK-2026-0001',
  expiresAt: '2026-11-25T02:15:00.000Z',
  ...overrides,
});

export const paymentStatusResult = (
  status: PaymentStatusResult['payment']['status'] = 'completed',
  overrides: Partial<PaymentStatusResult> = {},
): PaymentStatusResult => ({
  payment: { id: 'pay_123', status, amount: 7500, reference: 'BK-2026-0001', method: 'fpx' },
  booking: {
    confirmed: status === 'completed',
    slotId: 1,
    date: '2026-11-26',
    startTime: '09:00',
    endTime: '09:30',
    selectedSchool: brand.schools[1].name,
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.com',
  },
  emailStatus: 'sent',
  emailTimeouts: { visitorEmailTimeout: false, adminEmailTimeout: false },
  ...overrides,
});

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
  changeDeadline: '2026-11-26T01:00:00.000Z',
  canChange: true,
  cancelQuote: { percent: 100, amountSen: 7500 },
  ...overrides,
});
