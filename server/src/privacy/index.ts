// server/src/privacy's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { breachRoutes } from './breach-routes';
export { privacyCorrectionRoutes } from './corrections';
export { privacyRequestRoutes } from './request-routes';
export { scheduleRetention } from './retention';
export { staffPrivacyRoutes } from './routes';
