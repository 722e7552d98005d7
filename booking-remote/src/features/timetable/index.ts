export { Timetable } from './components/Timetable';
export type { BookableSlot } from './utils/displayFilter';
export { timetableApi } from './api/timetableApi';
