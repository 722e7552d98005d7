// The staff's visit day (issue 40): the Today view (visits, documents, Arrived / No-show / Undo) on the dashboard.
export { TodayView } from './components/TodayView';
