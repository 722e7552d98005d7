// `shared-api/schemas`: the contract's zod schemas as the browser bundles take them, built with zod's JIT off.
import './zod-without-jit';

export * from './schemas';
export * from './hold-limits';
export * from './slot-messages';
export * from './slot-rules';
export { formResolver } from './form-resolver';
