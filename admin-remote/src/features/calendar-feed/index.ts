export { CalendarFeedPanel, CalendarFeedText } from './components/CalendarFeedPanel';
