// server/src/waitlist's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { WAITLIST_MAIL_KINDS } from './mails';
export { waitlistPlugin } from './plugin';
export { staffWaitlistRoutes, waitlistRoutes } from './routes';
export { waitlistEntries } from './tables';
