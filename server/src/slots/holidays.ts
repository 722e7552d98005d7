// Public holidays of the schools' state, from the maintained date-holidays data (brand.config.json `publicHolidays`:
// country MY and the state's ISO 3166-2 number, e.g. 10 Selangor, 14 Kuala Lumpur), so slot planning can warn and skip.
import Holidays from 'date-holidays';
import type { HolidayNames } from 'shared-api/contract';
import brandConfig from '../../../brand.config.json';

const calendar = new Holidays(brandConfig.publicHolidays.country, brandConfig.publicHolidays.state, { languages: ['en'], types: ['public'] });

/** The public holidays from `fromDate` to `toDate` (YYYY-MM-DD, inclusive) by day; two on one day are named together. */
export function publicHolidays(fromDate: string, toDate: string): HolidayNames {
  const names = new Map<string, string>();
  for (let year = Number(fromDate.slice(0, 4)); year <= Number(toDate.slice(0, 4)); year++) {
    for (const holiday of calendar.getHolidays(year)) {
      // The date in the state's own time zone, as the data gives it ('2026-12-25 00:00:00').
      const day = holiday.date.slice(0, 10);
      if (day < fromDate || day > toDate) continue;
      const name = holiday.substitute ? `${holiday.name} (observed)` : holiday.name;
      names.set(day, names.has(day) && !names.get(day)!.includes(name) ? `${names.get(day)}, ${name}` : (names.get(day) ?? name));
    }
  }
  return names;
}
