export { Timetable } from './components/Timetable';
export type { BookableSlot } from '../../lib/slot-list/displayFilter';
export { timetableApi } from './api/timetableApi';
