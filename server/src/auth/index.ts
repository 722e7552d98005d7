// server/src/auth's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { accountRoutes } from './account-routes';
export { secondFactorRoutes } from './second-factor-routes';
export { countUsers, createUser, enabledAdminEmails } from './accounts';
export { type PasswordWorkOptions } from './password-work';
export { verifyPassword, type ScryptCost } from './passwords';
export { passwordsPlugin } from './plugin';
export { authRoutes } from './routes';
export { staffAuthPlugin } from './staff-auth';
export { users } from './tables';
