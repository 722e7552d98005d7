import { brand, type PaymentSession, type PaymentStatusResult, type PublicSlot } from 'shared-api';

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
