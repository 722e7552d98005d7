import { asc, eq } from 'drizzle-orm';
import { MANAGE_TOKEN_PATTERN, PAYMENT_KEY_HEADER } from 'shared-api/contract';
import { bookingEvents } from '../../src/bookings/tables';
import { mailOutbox, type MailRow } from '../../src/mail/tables';
import {
  initiateBody,
  initiateOk,
  insertSlot,
  markSandboxPaid,
  parentOf,
  paymentRow,
  postSandboxCallback,
  type PayCtx,
} from '../payments/support';

/** `key`: the payment's key (its hold token), which only the paying browser has. */
export type Booked = { paymentId: string; reference: string; slotId: number; token: string; sandboxId: string; key: string };

/** The manage token in a message's text (the link `/booking/manage/<token>`). */
export function tokenIn(text: string): string {
  const token = /\/booking\/manage\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token || !MANAGE_TOKEN_PATTERN.test(token)) throw new Error(`no manage link in:\n${text}`);
  return token;
}

/** A parent (by email) pays for a new slot `hoursAhead` hours from now on the sandbox: the booking and its mail's manage token. */
export async function bookPaid(ctx: PayCtx, hoursAhead: number, email: string): Promise<Booked> {
  const slot = await insertSlot(ctx.database, hoursAhead);
  const { session, sandboxId } = await initiateOk(ctx, initiateBody(slot, { visitorEmail: email }));
  await markSandboxPaid(ctx, sandboxId);
  const res = await postSandboxCallback(ctx, { session_id: sandboxId, reference: session.clientReference, status: 'paid', amount: 7500 });
  if (res.status !== 200) throw new Error(`callback failed: ${res.status} ${await res.text()}`);
  const p = await paymentRow(ctx, session.id);
  if (p.status !== 'completed') throw new Error(`payment not completed: ${p.status}`);
  const confirmation = (await mailsOf(ctx, session.id)).find((m) => m.kind === 'visitor_confirmation')!;
  return { paymentId: p.id, reference: p.reference, slotId: slot.id, token: tokenIn(confirmation.textBody), sandboxId, key: session.holdToken };
}

export const mailsOf = (ctx: PayCtx, paymentId: string): Promise<MailRow[]> =>
  ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, paymentId)).orderBy(asc(mailOutbox.id));

export const eventsOf = (ctx: PayCtx, paymentId: string) =>
  ctx.database.db.select().from(bookingEvents).where(eq(bookingEvents.paymentId, paymentId)).orderBy(asc(bookingEvents.id));

/** The parent's own address (the one that paid), for the manage routes' rate limit. */
const addressOf = (email: string) => parentOf(email).address;

export const manageGet = (ctx: PayCtx, token: string, address = '10.9.9.9') =>
  ctx.app.inject({ method: 'GET', url: `/api/booking/manage/${token}`, remoteAddress: address });

export const reschedule = (ctx: PayCtx, token: string, slotId: number, address = '10.9.9.9') =>
  ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${token}/reschedule`, payload: { slotId }, remoteAddress: address });

export const cancel = (ctx: PayCtx, token: string, expectedRefundSen: number, address = '10.9.9.9') =>
  ctx.app.inject({ method: 'POST', url: `/api/booking/manage/${token}/cancel`, payload: { expectedRefundSen }, remoteAddress: address });

/** POST /api/booking/manage-link as the paying browser sends it: the payment id with the payment's key (none: a stranger). */
export const mintLink = (ctx: PayCtx, paymentId: string, key: string | undefined, email = 'someone@example.com') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/booking/manage-link',
    payload: { paymentId },
    headers: key === undefined ? {} : { [PAYMENT_KEY_HEADER]: key },
    remoteAddress: addressOf(email),
  });

/** An .ics property's value (unfolded lines are short enough here). */
export const icsValue = (ics: string, name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(ics)?.[1]?.trim();
