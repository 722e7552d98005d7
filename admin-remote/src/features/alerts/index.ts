export { StaffAlertsNotice } from './components/StaffAlertsNotice';
export { useRefetchStaffAlerts, STAFF_ALERTS_POLL_MS } from './api/staffAlertsApi';
