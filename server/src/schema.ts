// Every table the API's queries are typed with, one file per owning domain (the SQL migrations made the database).
export * from './base/db/tables';
export * from './auth/tables';
export * from './audit/table';
export * from './bookings/tables';
export * from './calendar/tables';
export * from './payments/gateways/tables';
export * from './limits/tables';
export * from './mail/tables';
export * from './payments/tables';
export * from './slots/tables';
export * from './checkout/tables';
export * from './privacy/tables';
export * from './waitlist/tables';
export * from './documents/tables';
export * from './visit-day/tables';
