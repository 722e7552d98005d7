// `shared-api/accounts`: the staff accounts contract for the admin remote's account pages, JIT-less zod.
import './zod-without-jit';

export * from './accounts';
