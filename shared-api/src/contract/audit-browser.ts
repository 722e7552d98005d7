// `shared-api/audit`: the audit contract for the admin remote's audit page (lazy chunk), JIT-less zod.
import './zod-without-jit';

export * from './audit';
