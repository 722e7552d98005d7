// server/src/calendar's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { calendarFeedRoutes } from './routes';
