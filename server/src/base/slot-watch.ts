/**
 * "A slot may have freed": a registry through which a higher layer (the waitlist) hears of a change that may free a
 * slot (a cancel, a move, a released or lapsed hold, new slots) without the lower layers importing it. Keyed by the
 * app's database handle, so two apps in one test process keep their own; with none registered nothing happens.
 */
const listeners = new WeakMap<object, () => void>();

export function onSlotFreed(db: object, listener: () => void): void {
  listeners.set(db, listener);
}

export function offSlotFreed(db: object, listener: () => void): void {
  if (listeners.get(db) === listener) listeners.delete(db);
}

/** Tells the listener of `db` that a slot may have freed (after the commit; never throws). */
export function slotFreed(db: object): void {
  listeners.get(db)?.();
}
