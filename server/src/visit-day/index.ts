// server/src/visit-day's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { visitDayPlugin } from './plugin';
export { visitDayRoutes } from './routes';
export { visitAttendance, type VisitAttendanceRow } from './tables';
