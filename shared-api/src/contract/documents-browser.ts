// `shared-api/documents`: the documents contract for the browser's lazy chunks (manage page's checklist, staff's visit), JIT-less zod.
import './zod-without-jit';

export * from './documents';
