import type { DateWords } from './gmt8';

// Malay and Chinese day and month names (Dewan Bahasa dan Pustaka's and Mainland usage), each language's word for the
// time of day and its word order. Each a chunk of its own in the browser, fetched with the language; the server
// registers both at start.

export const MALAY_DATE_NAMES: DateWords = {
  patterns: { weekday: 'ddd', dayMonth: 'D MMM', longDate: 'dddd, D MMMM YYYY', time: 'h:mm A', stamp: 'D MMM YYYY, h:mm:ss A' },
  weekdays: ['Ahad', 'Isnin', 'Selasa', 'Rabu', 'Khamis', 'Jumaat', 'Sabtu'],
  weekdaysShort: ['Ahd', 'Isn', 'Sel', 'Rab', 'Kha', 'Jum', 'Sab'],
  months: ['Januari', 'Februari', 'Mac', 'April', 'Mei', 'Jun', 'Julai', 'Ogos', 'September', 'Oktober', 'November', 'Disember'],
  monthsShort: ['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ogo', 'Sep', 'Okt', 'Nov', 'Dis'],
  // "9:30 pagi", "12:30 tengah hari", "2:00 petang", "8:00 malam".
  meridiem: (hour) => (hour < 12 ? 'pagi' : hour < 14 ? 'tengah hari' : hour < 19 ? 'petang' : 'malam'),
};
