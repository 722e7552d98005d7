// The contract shared by the browser bundles and the server.
export * from './constants';
export * from './codes';
export * from './messages';
export * from './booking-messages';
export * from './slot-messages';
export * from './email';
export * from './schemas';
export * from './hold-limits';
export * from './brand';
export * from './time';
export * from './money';
export * from './what-to-bring';
export * from './calendar';
export * from './calendar-feed';
export * from './manage';
export * from './booking-policy';
export * from './audit';
