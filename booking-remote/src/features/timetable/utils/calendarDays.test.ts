import { loadDateLocale } from 'shared-api';
import { currentWeekdays, dayLabel, upcomingWeekdays } from './calendarDays';

describe('calendar days in GMT+8', () => {
  it('gives Monday to Friday of the current week, marking past days and today', () => {
    const days = currentWeekdays(new Date('2026-11-25T10:00:00+08:00'));
    expect(days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27']);
    expect(days.map((d) => d.isPast)).toEqual([true, true, false, false, false]);
    expect(days.find((d) => d.isToday)?.date).toBe('2026-11-25');
  });

  it('uses the GMT+8 date, not UTC: 23:30 UTC Sunday is already Monday in Malaysia', () => {
    const days = currentWeekdays(new Date('2026-11-22T23:30:00Z'));
    expect(days[0]).toEqual({ date: '2026-11-23', isToday: true, isPast: false });
  });

  it('gives the next 14 weekdays from today, skipping weekends', () => {
    const days = upcomingWeekdays(new Date('2026-11-27T09:00:00+08:00'));
    expect(days).toHaveLength(14);
    expect(days[0]).toEqual({ date: '2026-11-27', isToday: true, isPast: false });
    expect(days[1].date).toBe('2026-11-30');
    expect(days[13].date).toBe('2026-12-16');
  });

  it('starts on Monday when today is Saturday', () => {
    const days = upcomingWeekdays(new Date('2026-11-28T09:00:00+08:00'));
    expect(days[0]).toEqual({ date: '2026-11-30', isToday: false, isPast: false });
  });
});

describe('day labels in each language', () => {
  beforeAll(() => Promise.all([loadDateLocale('ms'), loadDateLocale('zh')]));

  it('names a day in English (the spec\'s words), Bahasa Melayu and 中文', () => {
    expect(dayLabel('2026-11-26')).toEqual({ weekday: 'Thu', short: '26 Nov', long: 'Thursday 26 November 2026' });
    expect(dayLabel('2026-12-07', 'ms')).toEqual({ weekday: 'Isn', short: '7 Dis', long: 'Isnin, 7 Disember 2026' });
    expect(dayLabel('2026-11-26', 'zh')).toEqual({ weekday: '周四', short: '11月26日', long: '2026年11月26日 星期四' });
  });
});
