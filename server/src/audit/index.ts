// server/src/audit's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { auditBy, recordAudit } from './record';
export { likePattern } from './query';
export { staffAuditRoutes } from './routes';
export { auditLog } from './table';
