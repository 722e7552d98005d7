// server/src/manage's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { bookingsPlugin } from './plugin';
export { ReminderJob } from './reminders';
export { manageRoutes } from './routes';
export { staffBookingRoutes } from './staff-routes';
export { visitsOn, type Visit, type VisitChild } from './visits';
