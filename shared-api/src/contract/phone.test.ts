import { formatPhone } from './phone';

describe('formatPhone: contact numbers as Malaysians write them', () => {
  it.each([
    ['0165773086', '016-577 3086'],
    ['01123456789', '011-2345 6789'],
    ['0312345678', '03-1234 5678'],
    ['041234567', '04-123 4567'],
    ['088123456', '088-123 456'],
    // Typed with separators in older data: the same digits, the same form.
    ['016 577 3086', '016-577 3086'],
    ['(016) 577-3086', '016-577 3086'],
  ])('%s → %s', (stored, shown) => {
    expect(formatPhone(stored)).toBe(shown);
  });

  it('shows any other number as it was given, and nothing as null', () => {
    expect(formatPhone('+6591234567')).toBe('+6591234567');
    expect(formatPhone('12345678')).toBe('12345678');
    expect(formatPhone('016-577 3086 ext 2')).toBe('016-577 3086 ext 2');
    expect(formatPhone('  ')).toBeNull();
    expect(formatPhone(null)).toBeNull();
  });
});
