import { PAYMENT_KEYS_STORAGE_KEY } from 'shared-api';
import { paymentSession } from '../test/fixtures';
import { paymentKeyFor, rememberPayment } from './paymentKeys';

afterEach(() => {
  window.localStorage.clear();
  jest.restoreAllMocks();
});

const started = (n: number) => paymentSession({ id: `pay_${n}`, paymentId: `pay_${n}`, clientReference: `PAY-${n}`, holdToken: `key-${n}` });

describe('the keys of the payments this browser started', () => {
  it('finds a payment by its id or its reference; any other payment has none', () => {
    rememberPayment(started(1));
    expect(paymentKeyFor('pay_1')).toBe('key-1');
    expect(paymentKeyFor('PAY-1')).toBe('key-1');
    expect(paymentKeyFor('pay_2')).toBeNull();
    expect(paymentKeyFor(null)).toBeNull();
  });

  it('keeps the latest five, a payment started again only once', () => {
    for (const n of [1, 2, 3, 4, 5, 6, 4]) rememberPayment(started(n));
    expect(JSON.parse(window.localStorage.getItem(PAYMENT_KEYS_STORAGE_KEY)!).map((e: { paymentId: string }) => e.paymentId)).toEqual([
      'pay_4',
      'pay_6',
      'pay_5',
      'pay_3',
      'pay_2',
    ]);
    expect(paymentKeyFor('pay_1')).toBeNull();
  });

  it('junk in storage, or no storage at all, proves nothing and breaks nothing', () => {
    window.localStorage.setItem(PAYMENT_KEYS_STORAGE_KEY, '{"not":"a list"');
    expect(paymentKeyFor('pay_1')).toBeNull();
    window.localStorage.setItem(PAYMENT_KEYS_STORAGE_KEY, JSON.stringify([{ paymentId: 'pay_1', reference: 'PAY-1' }, 'x']));
    expect(paymentKeyFor('pay_1')).toBeNull();
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(() => rememberPayment(started(1))).not.toThrow();
  });
});
