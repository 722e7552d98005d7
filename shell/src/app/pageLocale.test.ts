import { pageLocale } from './pageLocale';

describe('pageLocale', () => {
  it('is English on every staff page, whatever the parent chose', () => {
    for (const path of ['/login', '/register', '/forgot-password', '/reset-password/abc', '/secured/dashboard', '/secured/audit']) {
      expect(pageLocale(path, 'ms')).toBe('en');
      expect(pageLocale(path, 'zh')).toBe('en');
    }
  });

  it("is the parent's choice on every public page", () => {
    for (const path of ['/', '/thankyou', '/payment/success', '/payment/failure', '/booking/manage/abc']) {
      expect(pageLocale(path, 'ms')).toBe('ms');
      expect(pageLocale(path, 'en')).toBe('en');
    }
  });
});
