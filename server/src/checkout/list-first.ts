import type { DbOrTx } from '../base/db/connection';

/**
 * The waitlist's claim on free slots, asked before any public hold or a parent's move: a higher layer (the waitlist)
 * registers it here so the checkout never imports it. Keyed by the app's database handle, so two apps in one test
 * process keep their own; with none registered no slot is claimed.
 */
export type ListFirst = {
  /**
   * True when this free slot must not be held by the public now: it was freed while entries waited and the list has
   * not had it yet, or an offer of it runs for another hold token than `holdTokenHash` (the caller's).
   */
  claims(db: DbOrTx, slotId: number, holdTokenHash: string | null): Promise<boolean>;
};

const registered = new WeakMap<object, ListFirst>();

export function putListFirst(db: object, listFirst: ListFirst): void {
  registered.set(db, listFirst);
}

export function removeListFirst(db: object, listFirst: ListFirst): void {
  if (registered.get(db) === listFirst) registered.delete(db);
}

/** Whether the list registered for `db` claims this slot (false with none), read through `via` (`db`, or an open transaction of it). */
export async function listClaims(db: object, via: DbOrTx, slotId: number, holdTokenHash: string | null): Promise<boolean> {
  const listFirst = registered.get(db);
  return listFirst ? listFirst.claims(via, slotId, holdTokenHash) : false;
}
