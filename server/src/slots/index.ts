// server/src/slots's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { LIST_CHANGES_WAIT_MS } from './list-changes';
export { slotPlanningRoutes } from './planning-routes';
export { slotTimes, toPublicSlot, toStaffSlot } from './present';
export { publicRoutes } from './public-routes';
export { IdMismatchMessage, slotRoutes } from './routes';
export { SlotNotFoundMessage, bookedVisitorOf, findSlot, freeSeatsAt, publiclyBookable, visitorOnSlot, type BookedVisitor } from './slot-service';
export { slots, type SlotRow } from './tables';
