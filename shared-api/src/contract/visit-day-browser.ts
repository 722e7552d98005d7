// `shared-api/visit-day`: the visit-day contract for the admin remote's lazy chunks (the staff's Today view), JIT-less zod.
import './zod-without-jit';

export * from './visit-day';
