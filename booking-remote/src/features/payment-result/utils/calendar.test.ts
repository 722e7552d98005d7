import { googleCalendarUrl, icsFile, visitWhen } from './calendar';

const visit = { date: '2026-11-26', startTime: '2:00 PM', endTime: '2:30 PM', school: 'Seri Ilmu International', reference: 'BK-1' };

describe('add to calendar', () => {
  it('builds a Google Calendar link with the GMT+8 visit in UTC', async () => {
    const url = new URL((await googleCalendarUrl(visit)) as string);
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('dates')).toBe('20261126T060000Z/20261126T063000Z');
    expect(url.searchParams.get('text')).toBe('Assessment visit: Seri Ilmu International');
  });

  it('builds an .ics event, 30 minutes when the end time is missing, midnight read as 00:00', async () => {
    const ics = (await icsFile({ ...visit, startTime: '12:00 AM', endTime: undefined }, Date.parse('2026-11-25T00:00:00Z'))) as string;
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain('DTSTART;TZID=Asia/Singapore:20261126T000000');
    expect(ics).toContain('DTEND;TZID=Asia/Singapore:20261126T003000');
    expect(ics).toContain('SUMMARY:Assessment visit: Seri Ilmu International');
    expect(ics.split('\r\n').length).toBeGreaterThan(10);
  });

  it('folds long lines at 75 octets without splitting a character, and escapes text (RFC 5545)', async () => {
    const school = 'Sekolah Seri Ilmu, Kampus Utama; Bangunan Baharu — Dewan Peperiksaan 日本語 ✓ '.repeat(2).trim();
    const ics = (await icsFile({ ...visit, school }, Date.parse('2026-11-25T00:00:00Z'))) as string;
    const encoder = new TextEncoder();
    expect(ics.split('\r\n').every((line) => encoder.encode(line).length <= 75)).toBe(true);
    expect(ics).toMatch(/\r\n [^\r]/);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain(`SUMMARY:Assessment visit: ${school.replace(/,/g, '\\,').replace(/;/g, '\\;')}\r\n`);
  });

  it('gives nothing for an unreadable time', async () => {
    expect(await googleCalendarUrl({ ...visit, startTime: 'soon' })).toBeNull();
    expect(await icsFile({ ...visit, startTime: 'soon' })).toBeNull();
  });

  it('describes the visit in GMT+8: noon is 12:00 PM', () => {
    expect(visitWhen('2026-11-26', '12:00', '12:30')).toEqual({ day: 'Thursday 26 November 2026', time: '12:00 PM – 12:30 PM' });
  });
});
