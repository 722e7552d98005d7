import { MALAY_DATE_NAMES } from './date-names-ms';
import { CHINESE_DATE_NAMES } from './date-names-zh';
import { formatClock, formatDayInMY, formatInMY, registerDateWords } from './gmt8';
import { formatRM } from './money';

// Fixed instants, never today's date: 2026-03-02 is a Monday; 01:30 UTC is 9:30 in GMT+8, 06:00 UTC is 2:00 PM.
const mondayMorning = '2026-03-02T01:30:00Z';
const mondayAfternoon = '2026-03-02T06:00:00Z';

beforeAll(() => {
  registerDateWords('ms', MALAY_DATE_NAMES);
  registerDateWords('zh', CHINESE_DATE_NAMES);
});

describe('dates and times in each language (GMT+8)', () => {
  it('English keeps the spec’s patterns', () => {
    expect(formatDayInMY('2026-03-02', 'weekday')).toBe('Mon');
    expect(formatDayInMY('2026-03-02', 'dayMonth')).toBe('2 Mar');
    expect(formatDayInMY('2026-03-02', 'longDate')).toBe('Monday 2 March 2026');
    expect(formatInMY(mondayMorning, 'time', 'en')).toBe('9:30 AM');
    expect(formatInMY(mondayMorning, 'stamp', 'en')).toBe('2 Mar 2026, 9:30:00 AM');
    expect(formatClock(14 * 60, 'en')).toBe('2:00 PM');
  });

  it('Malay names days and months in Malay and says pagi / petang', () => {
    expect(formatDayInMY('2026-03-02', 'weekday', 'ms')).toBe('Isn');
    expect(formatDayInMY('2026-03-02', 'dayMonth', 'ms')).toBe('2 Mac');
    expect(formatDayInMY('2026-08-21', 'longDate', 'ms')).toBe('Jumaat, 21 Ogos 2026');
    expect(formatDayInMY('2026-08-21', 'dayMonth', 'ms')).toBe('21 Ogo');
    expect(formatInMY(mondayMorning, 'time', 'ms')).toBe('9:30 pagi');
    expect(formatInMY(mondayAfternoon, 'time', 'ms')).toBe('2:00 petang');
    expect(formatClock(12 * 60 + 30, 'ms')).toBe('12:30 tengah hari');
  });

  it('Chinese writes year, month and day in order with 上午 / 下午', () => {
    expect(formatDayInMY('2026-03-02', 'weekday', 'zh')).toBe('周一');
    expect(formatDayInMY('2026-03-02', 'dayMonth', 'zh')).toBe('3月2日');
    expect(formatDayInMY('2026-03-02', 'longDate', 'zh')).toBe('2026年3月2日 星期一');
    expect(formatInMY(mondayMorning, 'time', 'zh')).toBe('上午9:30');
    expect(formatInMY(mondayAfternoon, 'time', 'zh')).toBe('下午2:00');
  });

  it('a date late in the evening UTC is already the next day in GMT+8, in every language', () => {
    const sundayNightUtc = '2026-03-01T17:00:00Z';
    expect(formatInMY(sundayNightUtc, 'longDate', 'en')).toBe('Monday 2 March 2026');
    expect(formatInMY(sundayNightUtc, 'longDate', 'ms')).toBe('Isnin, 2 Mac 2026');
    expect(formatInMY(sundayNightUtc, 'longDate', 'zh')).toBe('2026年3月2日 星期一');
  });
});

describe('ringgit in each language', () => {
  it('English keeps "RM 75.50"; Malay and Chinese write the symbol against the amount', () => {
    expect(formatRM(7550)).toBe('RM 75.50');
    expect(formatRM(7500, 'en')).toBe('RM 75');
    expect(formatRM(7550, 'ms')).toBe('RM75.50');
    expect(formatRM(127550, 'ms')).toBe('RM1,275.50');
    expect(formatRM(10000, 'zh')).toBe('RM100');
    expect(formatRM(0, 'zh')).toBe('RM0');
  });
});
