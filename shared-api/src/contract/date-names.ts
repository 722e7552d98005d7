import type { DateNames } from './gmt8';

// Malay and Chinese day and month names (Dewan Bahasa dan Pustaka's and Mainland usage), with each language's word for
// the time of day. A chunk of their own in the browser, fetched with the language; the server registers both at start.

export const MALAY_DATE_NAMES: DateNames = {
  weekdays: ['Ahad', 'Isnin', 'Selasa', 'Rabu', 'Khamis', 'Jumaat', 'Sabtu'],
  weekdaysShort: ['Ahd', 'Isn', 'Sel', 'Rab', 'Kha', 'Jum', 'Sab'],
  months: ['Januari', 'Februari', 'Mac', 'April', 'Mei', 'Jun', 'Julai', 'Ogos', 'September', 'Oktober', 'November', 'Disember'],
  monthsShort: ['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ogo', 'Sep', 'Okt', 'Nov', 'Dis'],
  // "9:30 pagi", "12:30 tengah hari", "2:00 petang", "8:00 malam".
  meridiem: (hour) => (hour < 12 ? 'pagi' : hour < 14 ? 'tengah hari' : hour < 19 ? 'petang' : 'malam'),
};

export const CHINESE_DATE_NAMES: DateNames = {
  weekdays: ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
  weekdaysShort: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
  months: ['一月', '二月', '三月', '四月', '五月', '六月', '七月', '八月', '九月', '十月', '十一月', '十二月'],
  monthsShort: ['1月', '2月', '3月', '4月', '5月', '6月', '7月', '8月', '9月', '10月', '11月', '12月'],
  // "上午9:30", "下午2:00" (noon and after is 下午, as calendars and tickets write it).
  meridiem: (hour) => (hour < 12 ? '上午' : '下午'),
};
