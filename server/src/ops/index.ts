// server/src/ops's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { healthRoutes, readinessPlugin } from './health-routes';
export { metricsPlugin } from './metrics';
export { serveMetrics } from './metrics-server';
export { staffAlertRoutes } from './staff-alerts-routes';
