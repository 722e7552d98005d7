// server/src/bookings's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { assertCurrentNotice, recordConsent } from './consents';
export { appendBookingEvent, bookingHistory, startsOf } from './events';
export { bookingReminders, consents, manageTokens } from './tables';
export { MAX_BROWSER_TOKENS, browserTokenCount, manageUrl, mintManageToken } from './tokens';
