import type { DateWords } from './gmt8';

// Malay and Chinese day and month names (Dewan Bahasa dan Pustaka's and Mainland usage), each language's word for the
// time of day and its word order. Each a chunk of its own in the browser, fetched with the language; the server
// registers both at start.

export const CHINESE_DATE_NAMES: DateWords = {
  patterns: { weekday: 'ddd', dayMonth: 'M月D日', longDate: 'YYYY年M月D日 dddd', time: 'Ah:mm', stamp: 'YYYY年M月D日 Ah:mm:ss' },
  weekdays: ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
  weekdaysShort: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
  months: ['一月', '二月', '三月', '四月', '五月', '六月', '七月', '八月', '九月', '十月', '十一月', '十二月'],
  monthsShort: ['1月', '2月', '3月', '4月', '5月', '6月', '7月', '8月', '9月', '10月', '11月', '12月'],
  // "上午9:30", "下午2:00" (noon and after is 下午, as calendars and tickets write it).
  meridiem: (hour) => (hour < 12 ? '上午' : '下午'),
};
