// Loaded lazily by the home page: nothing here is on the timetable's first load.
export { BookingDialog as default, type DialogSlot } from './components/BookingDialog';
