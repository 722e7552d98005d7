import { formatRM, formatRinggit } from './money';

describe('formatRM', () => {
  it('shows whole ringgit without decimals', () => {
    expect(formatRM(7500)).toBe('RM 75');
    expect(formatRM(10000)).toBe('RM 100');
  });

  it('shows two decimals when there are sen', () => {
    expect(formatRM(7550)).toBe('RM 75.50');
    expect(formatRM(7505)).toBe('RM 75.05');
    expect(formatRM(1)).toBe('RM 0.01');
  });

  it('shows zero as RM 0', () => {
    expect(formatRM(0)).toBe('RM 0');
  });

  it('groups thousands', () => {
    expect(formatRM(123456789)).toBe('RM 1,234,567.89');
  });

  it('rejects amounts that are not integer sen', () => {
    expect(() => formatRM(75.5)).toThrow(RangeError);
    expect(() => formatRM(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatRinggit', () => {
  it('is the amount without the currency, for labels that write "RM" themselves', () => {
    expect(formatRinggit(7500)).toBe('75');
    expect(formatRinggit(7550)).toBe('75.50');
  });
});
