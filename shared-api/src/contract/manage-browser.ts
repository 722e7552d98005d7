// `shared-api/manage`: the manage contract for the browser's lazy chunks (manage page, Appointment Details), JIT-less zod.
import './zod-without-jit';

export * from './manage';
