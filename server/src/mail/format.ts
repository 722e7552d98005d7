import { dayjs, formatRM, inMY } from 'shared-api/contract';

/** Visitor text into HTML: every markup character becomes an entity, so a name like `<img ...>` arrives as text. */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One line for a header or plain-text field: no control characters (no header injection). */
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
export const oneLine = (value: string): string => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();


/** "Monday, 23 November 2026" in GMT+8. */
export const formatDateMY = (d: Date): string => inMY(d).format('dddd, D MMMM YYYY');
/** "9:00 AM" in GMT+8. */
export const formatTimeMY = (d: Date): string => inMY(d).format('h:mm A');

export { dayjs, formatRM };
