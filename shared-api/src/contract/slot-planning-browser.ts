// `shared-api/slot-planning`: the slot-planning contract for the staff side's create-slots dialog, JIT-less zod.
import './zod-without-jit';

export * from './slot-planning';
