// `shared-api/waitlist`: the waitlist contract for the browser's lazy chunks (waitlist pages, staff Waitlist), JIT-less zod.
import './zod-without-jit';

export * from './waitlist';
