// server/src/insights' public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { insightsRoutes } from './routes';
