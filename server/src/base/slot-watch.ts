import type { DbOrTx } from './db/connection';

/**
 * A registry through which a higher layer (the waitlist) watches the slots without the lower layers importing it:
 * `slotFreed` after a change that may free a slot (a cancel, a move, a released or lapsed hold, new slots), and
 * `slotClaimed` before a new hold is taken (a reserve, a payment without a hold of its own). Keyed by the app's
 * database handle, so two apps in one test process keep their own watchers; with none registered nothing happens.
 */
export type SlotWatcher = {
  /**
   * True when a free slot must not be held by the public now (the waitlist is offered it first, or an offer of it runs
   * for another hold token than `holdTokenHash`, the caller's).
   */
  claimed(db: DbOrTx, slotId: number, holdTokenHash?: string | null): Promise<boolean>;
  /** Something may have freed a slot: called after the change committed; must not throw. */
  freed(): void;
};

const watchers = new WeakMap<object, SlotWatcher>();

export function watchSlots(db: object, watcher: SlotWatcher): void {
  watchers.set(db, watcher);
}

export function unwatchSlots(db: object, watcher: SlotWatcher): void {
  if (watchers.get(db) === watcher) watchers.delete(db);
}

/** Whether the watcher of `db` claims this free slot (false with no watcher). */
export async function slotClaimed(db: DbOrTx, slotId: number, holdTokenHash?: string | null): Promise<boolean> {
  const watcher = watchers.get(db);
  return watcher ? watcher.claimed(db, slotId, holdTokenHash) : false;
}

/** Tells the watcher of `db` that a slot may have freed (after the commit). */
export function slotFreed(db: object): void {
  watchers.get(db)?.freed();
}
