import { toE164 } from '../../src/whatsapp/cloud/e164';

describe('toE164', () => {
  it('turns a national Malaysian mobile into E.164', () => {
    expect(toE164('0123456789')).toBe('+60123456789');
    expect(toE164('01123456789')).toBe('+601123456789');
    // As pages show it: spaces and dashes carry no digits.
    expect(toE164('012-345 6789')).toBe('+60123456789');
  });
  it('keeps an international number', () => {
    expect(toE164('+60123456789')).toBe('+60123456789');
    expect(toE164('+6591234567')).toBe('+6591234567');
  });
  it('refuses what is not a number', () => {
    for (const bad of ['', '123', '0', '+0123456789', '012-34a6789', '+6012', '+601234567890123456']) {
      expect(toE164(bad)).toBeNull();
    }
    expect(toE164(null)).toBeNull();
  });
});
