import type { DatabaseHandle } from '../base/db/connection';

/** The NOTIFY channel migration 0026's trigger speaks on, with slot_changes_seq's new value. */
export const SLOT_CHANGES_CHANNEL = 'slot_changes';
/** How long GET /public/list/changes waits for a change before answering the same version. */
export const LIST_CHANGES_WAIT_MS = 25_000;
/** Waiting requests one process keeps; more are answered with the version as it is, after a short pause. */
export const LIST_CHANGES_MAX_WAITING = 200;
/** Waiting requests one client network (IPv4 /24, IPv6 /56) may have on one process; more are refused (429). */
export const LIST_CHANGES_MAX_PER_NETWORK = 4;
/** How long a request beyond the process's waiters is held before it gets the version as it is (its caller then asks again). */
export const LIST_CHANGES_OVERFLOW_PAUSE_MS = 1000;

/** One client network already has its waiting requests here. */
export class TooManyFromNetwork extends Error {}
/** The database connection that listened ended: changes may be missed until it is back, so no version is vouched for. */
export class ListenerLost extends Error {}

/**
 * The public list's version (slot_changes_seq's last value: it moves at the commit of any change to a slot row, on
 * any process) and a wait for its next value. The process LISTENs only once somebody asks, then keeps listening.
 * Changes that come with time alone (a hold running out) do not move it: readers still re-read after a second.
 */
export type ListChanges = {
  /**
   * The version now; with `after`, resolves once the version is past it, or after `waitMs` with the same one. `network`:
   * the caller's client network, of which at most LIST_CHANGES_MAX_PER_NETWORK wait at once (TooManyFromNetwork beyond).
   */
  next(after: number | undefined, gone: AbortSignal, network?: string): Promise<number>;
  close(): Promise<void>;
};

export type ListChangesLimits = { waitMs?: number; maxWaiting?: number; maxPerNetwork?: number; overflowPauseMs?: number };

/**
 * One address holding every waiting place would switch off live updates for every other caller on the process: each
 * network has a few places, and a caller beyond the process's places is answered (after a pause), never refused.
 */
export function createListChanges(database: DatabaseHandle, limits: ListChangesLimits = {}): ListChanges {
  const {
    waitMs = LIST_CHANGES_WAIT_MS,
    maxWaiting = LIST_CHANGES_MAX_WAITING,
    maxPerNetwork = LIST_CHANGES_MAX_PER_NETWORK,
    overflowPauseMs = LIST_CHANGES_OVERFLOW_PAUSE_MS,
  } = limits;
  const perNetwork = new Map<string, number>();
  let latest = 0;
  let listening: Promise<void> | undefined;
  let stop: (() => Promise<void>) | undefined;
  let closed = false;
  const waiting = new Set<{ after: number; answer: (lost?: ListenerLost) => void }>();

  const moveTo = (version: number) => {
    if (!(version > latest)) return;
    latest = version;
    for (const waiter of [...waiting]) if (latest > waiter.after) waiter.answer();
  };
  const readVersion = async () => {
    const { rows } = await database.exec('SELECT last_value, is_called FROM slot_changes_seq');
    return rows[0].is_called ? Number(rows[0].last_value) : 0;
  };
  // Listen first, then read: a change committed in between is in one or the other.
  const startListening = () =>
    (listening ??= (async () => {
      stop = await database.listen(SLOT_CHANGES_CHANNEL, (payload) => moveTo(Number(payload)), () => {
        // Lost: listen again at the next ask; meanwhile every waiter is told, and reads the list for itself.
        listening = undefined;
        stop = undefined;
        for (const waiter of [...waiting]) waiter.answer(new ListenerLost('The list version is not followed right now'));
      });
      moveTo(await readVersion());
    })().catch((err: unknown) => {
      listening = undefined;
      throw err;
    }));

  return {
    async next(after, gone, network = '') {
      await startListening();
      if (after === undefined || latest > after || closed) return latest;
      if ((perNetwork.get(network) ?? 0) >= maxPerNetwork) throw new TooManyFromNetwork('Too many requests from this network are waiting for a change');
      if (waiting.size >= maxWaiting) {
        // Not held as a waiter: the version as it is, a little later, so its caller does not ask again at once.
        await new Promise((resolve) => setTimeout(resolve, overflowPauseMs).unref());
        return latest;
      }
      perNetwork.set(network, (perNetwork.get(network) ?? 0) + 1);
      return new Promise<number>((resolve, reject) => {
        const answer = (lost?: ListenerLost) => {
          if (!waiting.delete(waiter)) return;
          const left = (perNetwork.get(network) ?? 1) - 1;
          if (left > 0) perNetwork.set(network, left);
          else perNetwork.delete(network);
          clearTimeout(timer);
          gone.removeEventListener('abort', done);
          if (lost) reject(lost);
          else resolve(latest);
        };
        const done = () => answer();
        const waiter = { after, answer };
        const timer = setTimeout(done, waitMs);
        gone.addEventListener('abort', done);
        waiting.add(waiter);
      });
    },
    async close() {
      closed = true;
      for (const waiter of [...waiting]) waiter.answer();
      await stop?.();
    },
  };
}
