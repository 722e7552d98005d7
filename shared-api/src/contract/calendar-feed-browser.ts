// `shared-api/calendar-feed`: the calendar feed contract for the admin remote's lazy chunk, JIT-less zod.
import './zod-without-jit';

export * from './calendar-feed';
