import { BookingMessage, ErrorCode, HOLD_MINUTES, HoldMessage, WaitlistErrorCode, WaitlistMessage } from 'shared-api/contract';
import { sha256 } from '../base/crypto';
import type { Db, DbOrTx } from '../base/db/connection';
import { AppError } from '../base/errors';
import { slotFreed } from '../base/slot-watch';
import { findSlot, SlotNotFoundMessage } from '../slots';
import type { SlotRow } from '../slots';
import { grantHoldTime } from './hold-time';
import {
  bookSlotRow,
  claimOwnHoldRow,
  clearLapsedHoldRows,
  freeBookedSlotRow,
  heldSeatsOf,
  lockSlotsInOrder,
  refuse,
  releaseHoldRow,
  releaseOfferHoldRow,
  releaseSeatRows,
  seatToHold,
  takeHoldRow,
  visibleRefusal,
  type BookInput,
  type Hold,
  type HoldHolder,
  type Refusal,
} from './hold-rows';
import { HoldLimits, HoldRefusal, holdWork } from './limits';
import { listClaims } from './list-first';

/** A payment on the caller's own hold renews it (at a new hold's cost) only when less than this is left to pay in. */
export const PAYABLE_MS = 10 * 60_000;

const waitlistFirst = () => new AppError(409, WaitlistErrorCode.WAITLIST_FIRST as ErrorCode, WaitlistMessage.waitlistFirst);

/** A new hold of HOLD_MINUTES (the caller's token, if it brought one), within the holder's hold time on the slot; refused otherwise (thrown). */
async function newHold(tx: DbOrTx, slotId: number, holder: HoldHolder, token?: string, anySeat = false): Promise<Hold> {
  const taken = await takeHoldRow(tx, slotId, HOLD_MINUTES, { holder, token, anySeat });
  if ('ok' in taken) return refuse(taken);
  return { ...taken, expiresAt: await grantHoldTime(tx, taken.slotId, taken.token, holder, { minutes: HOLD_MINUTES }) };
}

const notEnoughPlaces = () => new AppError(409, ErrorCode.SLOT_NOT_AVAILABLE, BookingMessage.notEnoughPlaces).withReason({ rule: 'notEnoughPlaces' });

/**
 * More seats of a hold's time under its token until it holds `seats` (one per child, issue 37), each a new hold with
 * its own hold time; fewer free seats than that: 409, rolling all of it back. The hold ends when its first seat does.
 */
async function addSeats(tx: DbOrTx, hold: Hold, held: number[], seats: number, holder: HoldHolder): Promise<Hold> {
  let expiresAt = hold.expiresAt;
  const slotIds = [...held];
  while (slotIds.length < seats) {
    const taken = await takeHoldRow(tx, hold.slotId, HOLD_MINUTES, { holder, token: hold.token, anySeat: true });
    if ('ok' in taken) throw notEnoughPlaces();
    const end = await grantHoldTime(tx, taken.slotId, hold.token, holder, { minutes: HOLD_MINUTES });
    if (end < expiresAt) expiresAt = end;
    slotIds.push(taken.slotId);
  }
  return { ...hold, expiresAt, slotIds };
}

/** A payment's hold as the checkout gave it: new (taken by this payment) or the caller's own (`ownEnd`: its end before). */
export type PaymentHold = { hold: Hold; tookHold: boolean; ownEnd: Date | null };

export type PaymentHoldRequest = {
  slotId: number;
  /** Seats to hold under the one token, one per child (issue 37; 1 when left out). */
  seats?: number;
  /** The caller's hold token (from a reserve, a waitlist offer or an earlier payment), if it has one. */
  token?: string;
  /** The client's address: the hold limits count by its network. */
  ip: string;
  visitor: { visitorEmail: string; visitorContactNo: string };
  proof?: string;
};

/**
 * A waitlist offer's hold: charged to its entry's person and the network that made the entry. `slotIds`: the seats of
 * one time it holds together under one token, one per child of the entry (issue 37), the freed seat first.
 */
export type OfferHoldRequest = { slotIds: number[]; person: Required<HoldHolder>; minutes: number; at: Date };

/** Thrown inside an offer's savepoint when one of its seats went meanwhile: the seats taken before it are undone. */
class SeatGone extends Error {}

/**
 * The checkout: the one owner of a slot's hold and of what a booking costs (price.ts). Every path that holds, books or
 * frees a slot comes through here, so the hold rules (the waitlist first, a network's share of the slots, the hold time
 * per network, email and phone, proof of work past the free holds, one live hold per email and phone) apply to all:
 * a parent's reserve, a payment, a waitlist offer, a move by the parent or staff, and any path added later.
 */
export class Checkout {
  private static readonly loaded = new WeakMap<Db, Promise<Checkout>>();

  /** The checkout of one database (its hold-limit keys are read once, shared by every replica). */
  static for(db: Db): Promise<Checkout> {
    let checkout = Checkout.loaded.get(db);
    if (!checkout) {
      checkout = HoldLimits.load(db).then((limits) => new Checkout(db, limits));
      checkout.catch(() => Checkout.loaded.delete(db));
      Checkout.loaded.set(db, checkout);
    }
    return checkout;
  }

  private constructor(
    private readonly db: Db,
    readonly limits: HoldLimits,
  ) {}

  /** 409 WAITLIST_FIRST when the waitlist claims this free slot (and its pass is asked to run now). */
  private async refuseListFirst(slotId: number, holdTokenHash: string | null): Promise<void> {
    if (!(await listClaims(this.db, this.db, slotId, holdTokenHash))) return;
    slotFreed(this.db);
    throw waitlistFirst();
  }

  /** The slot as it stands, refused at once when missing, booked or held by another token (before any lock is queued on). */
  private async openSlot(slotId: number, holdTokenHash: string | null): Promise<SlotRow> {
    const slot = await findSlot(this.db, slotId);
    if (!slot) throw new AppError(404, ErrorCode.NOT_FOUND, SlotNotFoundMessage);
    const seen = visibleRefusal(slot, holdTokenHash);
    if (seen) return refuse(seen);
    return slot;
  }

  /**
   * A parent's hold (POST /slot/{id}/reserve): HOLD_MINUTES within the network's hold time on the slot, and past the
   * network's free holds only with a valid proof of work (HoldRefusal otherwise: 429 with its challenge or Retry-After).
   */
  async reserve(asked: number, ip: string, proof?: string, seats = 1): Promise<Hold> {
    const holder = this.limits.holder(ip);
    // A time with several seats: the seat chosen, or another of its free seats (the answer names the one held).
    const slotId = await seatToHold(this.db, asked);
    await this.openSlot(slotId, null);
    await this.refuseListFirst(slotId, null);
    await this.limits.screen(this.db, holder, proof, seats);
    return this.limits.transaction(this.db, holder, async (tx) => {
      const first = await newHold(tx, slotId, holder, undefined, true);
      const hold = seats > 1 ? await addSeats(tx, first, [first.slotId], seats, holder) : first;
      // Counted with every seat written: asking for four children costs what four holds cost.
      await this.limits.admit(tx, holder, proof);
      return hold;
    });
  }

  /**
   * A payment's hold, in ONE transaction under the holder's advisory locks with the payment written by `attach`:
   * `attach` gets the transaction and `takeHold`, which uses the caller's own live hold (renewed, at a new hold's
   * cost, when less than PAYABLE_MS is left; charged to the network holding it, whichever network asks) or takes a
   * new one (with the caller's token when it brought one), within its hold time, one live hold per email and phone,
   * and the network's limits. `attach` may return without taking one (a payment reused). Any refusal or failure rolls
   * all of it back. Returns what `attach` returned and the slot as read before.
   */
  async forPayment<T>(request: PaymentHoldRequest, attach: (tx: DbOrTx, takeHold: () => Promise<PaymentHold>) => Promise<T>): Promise<{ result: T; slot: SlotRow }> {
    const { token, proof } = request;
    const seats = request.seats ?? 1;
    // Without a hold of its own, a time with several seats: the seat chosen, or another of its free seats (as a reserve).
    const slotId = token ? request.slotId : await seatToHold(this.db, request.slotId);
    const tokenHash = token ? sha256(token) : null;
    const slot = await this.openSlot(slotId, tokenHash);
    const ownHold = !!tokenHash && slot.holdTokenHash === tokenHash;
    // A free slot the waitlist has first is not held for anyone else (the caller's own live hold is theirs).
    if (!(ownHold && slot.holdExpiresAt && slot.holdExpiresAt > new Date())) await this.refuseListFirst(slotId, tokenHash);
    const holder = this.limits.holder(request.ip, request.visitor);
    // Without a hold of its own, this is a new hold: refused at once when it could not stand, before queueing on the locks.
    if (!token) await this.limits.screen(this.db, holder, proof, seats);
    // A renewal is charged to the network that holds the hold, whichever network asks (else a second network would
    // renew for free), under that network's lock too.
    const holdingNetwork = ownHold ? slot.holdClient : null;
    const payer: HoldHolder = { ...holder, client: holdingNetwork ?? holder.client };
    const result = await this.limits.transaction(
      this.db,
      holder,
      (tx) =>
        attach(tx, async () => {
          const ownEnd = token ? await claimOwnHoldRow(tx, slotId, token, holder) : null;
          let hold: Hold;
          let charged = true;
          if (token && ownEnd) {
            charged = ownEnd.getTime() - Date.now() < PAYABLE_MS;
            const expiresAt = await grantHoldTime(tx, slotId, token, holder, charged ? { minutes: HOLD_MINUTES } : 'keep');
            // The hold's other seats (one per child, issue 37): renewed with it, more taken or the extra given back.
            const others = (await heldSeatsOf(tx, token)).filter((id) => id !== slotId);
            for (const seat of others) await grantHoldTime(tx, seat, token, holder, charged ? { minutes: HOLD_MINUTES } : 'keep');
            await releaseSeatRows(tx, others.slice(seats - 1), token);
            const kept = [slotId, ...others.slice(0, seats - 1)];
            hold = seats > 1 ? await addSeats(tx, { slotId, token, expiresAt }, kept, seats, holder) : { slotId, token, expiresAt };
            // New seats cost what new holds cost.
            if (kept.length < seats) charged = true;
          } else {
            const first = await newHold(tx, slotId, holder, token, !token);
            hold = seats > 1 ? await addSeats(tx, first, [first.slotId], seats, holder) : first;
          }
          if (await this.limits.visitorHoldsAnother(tx, holder, slotId, sha256(hold.token)))
            throw new AppError(409, ErrorCode.VISITOR_HAS_HOLD, HoldMessage.visitorHasHold).withReason({ rule: 'visitorHasHold', params: { minutes: HOLD_MINUTES } });
          // A new or renewed hold over the network's free holds stands only with a valid proof of work (rolled back otherwise).
          if (charged) await this.limits.admit(tx, ownEnd ? payer : holder, proof);
          return { hold, tookHold: !ownEnd, ownEnd };
        }),
      holdingNetwork,
    );
    return { result, slot };
  }

  /** Ends a hold with its token (and its hold time); false when the token does not hold the slot. */
  async release(slotId: number, token: string): Promise<boolean> {
    const released = await releaseHoldRow(this.db, slotId, token);
    if (released) slotFreed(this.db);
    return released;
  }

  /** Ends a hold in the caller's transaction (a payment that failed or was cancelled); the caller tells the waitlist after commit. */
  endHold(tx: DbOrTx, slotId: number, token: string): Promise<boolean> {
    return releaseHoldRow(tx, slotId, token);
  }

  /**
   * A waitlist offer's hold, in the offer pass's transaction: like any hold, charged to the entry's person and to the
   * network that made the entry, refused (null) past that network's ceiling, while the person holds another slot, or
   * when their hold time on this slot is used; the hold ends within that time (its end is the offer's). Never waits for
   * a lock: 'busy' when the holder is in another transaction (the pass asks again next time).
   */
  async offer(tx: DbOrTx, { slotIds, person, minutes, at }: OfferHoldRequest): Promise<Hold | 'busy' | null> {
    if (!(await this.limits.tryLock(tx, person))) return 'busy';
    const seats = slotIds.length;
    const holds = await this.limits.networkHolds(tx, person.client);
    // Every seat counts toward the network's share, as a parent's hold of several children does.
    if (holdWork({ ...holds, live: holds.live + seats, unheld: Math.max(0, holds.unheld - seats) }) === null) return null;
    if (await this.limits.visitorHoldsAnother(tx, person, slotIds[0])) return null;
    try {
      // A savepoint: a hold whose time is refused, or one of whose seats went, is undone whole; the pass goes on.
      return await tx.transaction(async (savepoint) => {
        const first = await takeHoldRow(savepoint, slotIds[0], minutes, { holder: person, at });
        if ('ok' in first) return null;
        const ends = [await grantHoldTime(savepoint, first.slotId, first.token, person, { minutes }, at)];
        for (const seat of slotIds.slice(1)) {
          const taken = await takeHoldRow(savepoint, seat, minutes, { holder: person, at, token: first.token });
          if ('ok' in taken) throw new SeatGone();
          ends.push(await grantHoldTime(savepoint, seat, first.token, person, { minutes }, at));
        }
        // The seats end together (with the offer): each at the shortest time any of them was given.
        const expiresAt = new Date(Math.min(...ends.map((end) => end.getTime())));
        for (const [index, seat] of slotIds.entries())
          if (ends[index] > expiresAt) await grantHoldTime(savepoint, seat, first.token, person, { minutes: (expiresAt.getTime() - at.getTime()) / 60_000 }, at);
        return { ...first, expiresAt, slotIds: seats > 1 ? slotIds : undefined };
      });
    } catch (err) {
      if (err instanceof HoldRefusal || err instanceof SeatGone) return null;
      throw err;
    }
  }

  /** Gives back every seat an offer held (see releaseOfferHoldRow); the pass that ended the offer passes them on. */
  releaseOffer(tx: DbOrTx, offer: { slotId: number; holdToken: string; expiresAt: Date }, at: Date): Promise<void> {
    return releaseOfferHoldRow(tx, offer, at);
  }

  /** Clears holds that ran out, so their freeing is numbered (the offer pass calls it first). */
  clearLapsedHolds(tx: DbOrTx): Promise<number[]> {
    return clearLapsedHoldRows(tx);
  }

  /**
   * Books a slot (the gateway's word that a payment went through, or staff booking directly): the one conditional
   * UPDATE (hold-rows.ts bookSlotRow).
   */
  book(tx: DbOrTx, input: BookInput): Promise<{ ok: true; slot: SlotRow } | Refusal> {
    return bookSlotRow(tx, input);
  }

  /**
   * Books one seat per child of a checkout (issue 37), all or none: each the child's held seat (`input.slotId`) or,
   * when that went, another free seat of the same time; one refused child undoes the others (a savepoint) and the
   * refusal is answered. The seats booked, in the children's order.
   */
  async bookAll(tx: DbOrTx, inputs: BookInput[]): Promise<{ ok: true; slots: SlotRow[] } | Refusal> {
    // The refusal that undid the savepoint (thrown only to roll it back).
    const refused: { refusal?: Refusal } = {};
    try {
      return await tx.transaction(async (savepoint) => {
        const booked: SlotRow[] = [];
        for (const input of inputs) {
          let won = await bookSlotRow(savepoint, input);
          if (!won.ok) {
            const other = await seatToHold(savepoint, input.slotId);
            if (other !== input.slotId) won = await bookSlotRow(savepoint, { ...input, slotId: other });
          }
          if (!won.ok) {
            refused.refusal = won;
            throw new Error(won.message);
          }
          booked.push(won.slot);
        }
        return { ok: true as const, slots: booked };
      });
    } catch (err) {
      if (refused.refusal) return refused.refusal;
      throw err;
    }
  }

  /**
   * Moves a booking, in the caller's transaction: both slots locked in id order, the old one freed, the new one taken
   * with the booking's conditional UPDATE (a refusal: the caller throws, so everything rolls back). A parent's move
   * may not take a slot the waitlist has first (staff may).
   */
  async move(tx: DbOrTx, move: { fromSlotId: number; reference: string; by: 'parent' | 'staff' } & BookInput): Promise<{ ok: true; slot: SlotRow } | Refusal> {
    const { fromSlotId, reference, by, ...booking } = move;
    // Read in the move's transaction (PGlite runs one at a time: a read beside it would wait for it).
    if (by === 'parent' && (await listClaims(this.db, tx, booking.slotId, null))) {
      slotFreed(this.db);
      return { ok: false, status: 409, code: WaitlistErrorCode.WAITLIST_FIRST as ErrorCode, message: WaitlistMessage.waitlistFirst };
    }
    // A time with several seats: the seat asked or, when it went meanwhile, another free seat of that time.
    const seat = await seatToHold(tx, booking.slotId);
    await lockSlotsInOrder(tx, [fromSlotId, seat]);
    await freeBookedSlotRow(tx, fromSlotId, reference);
    return bookSlotRow(tx, { ...booking, slotId: seat, bookingReference: reference });
  }

  /** Frees a cancelled booking's slot, in the caller's transaction: public again at once (and the waitlist's, first). */
  freeBooking(tx: DbOrTx, slotId: number, reference: string): Promise<boolean> {
    return freeBookedSlotRow(tx, slotId, reference);
  }
}
