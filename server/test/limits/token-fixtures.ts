import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { createUser } from '../../src/auth/accounts';
import { requestPasswordReset } from '../../src/auth/password-reset';
import type { ScryptCost } from '../../src/auth/passwords';
import { mintManageToken } from '../../src/bookings/tokens';
import { createOrRegenerateFeed } from '../../src/calendar/feed';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { slots } from '../../src/slots/tables';
import { mailOutbox } from '../../src/mail/tables';
import { payments } from '../../src/payments/tables';
import { insertConsent, insertSlot } from '../helpers';

/** One valid token of each kind a URL carries, written straight into the database (as a paid booking, a staff feed and a reset mail would). */
export type ValidTokens = { manageToken: string; paymentId: string; /** The payment's key (its hold token), which only the paying browser has. */ paymentKey: string; feedToken: string; resetToken: string; resetEmail: string };

let n = 0;

/** A paid, booked visit in two days with its manage token; a staff account with a calendar feed and a reset link. */
export async function validTokens(database: DatabaseHandle, cost: ScryptCost): Promise<ValidTokens> {
  const { db } = database;
  n += 1;
  const slot = await insertSlot(database, 48 + n);
  const paymentId = `pay_${randomBytes(16).toString('hex')}`;
  const paymentKey = randomBytes(16).toString('hex');
  const reference = `PAY-GUESS-${n}-${randomBytes(4).toString('hex')}`;
  const visitor = { visitorName: 'Guess Test', visitorEmail: `guess${n}@example.com`, visitorContactNo: '0123456789', selectedSchool: 'Seri Ilmu Private Secondary' };
  await db.update(slots).set({ status: 'booked', bookingReference: reference, ...visitor, consentId: await insertConsent(db) }).where(eq(slots.id, slot.id));
  await db.insert(payments).values({
    id: paymentId,
    reference,
    slotId: slot.id,
    status: 'completed',
    amountSen: 7500,
    ...visitor,
    holdToken: paymentKey,
    gateway: 'sandbox',
    sessionExpiresAt: new Date(Date.now() + 3_600_000),
    completedAt: new Date(),
    paidAmountSen: 7500,
    bookingStatus: 'booked',
    consentId: await insertConsent(db),
  });
  const manageToken = await mintManageToken(db, paymentId, 'mail');

  const resetEmail = `staff-guess${n}@example.com`;
  const user = await createUser(db, { email: resetEmail, password: 'staff-password-1' }, cost);
  const feedUrl = (await createOrRegenerateFeed(db, user!.id, 'http://api.test')).url!;
  const feedToken = /\/calendar\/([^/]+)\.ics$/.exec(feedUrl)![1];
  await requestPasswordReset(db, resetEmail, { publicSiteUrl: 'http://site.test', mailFrom: 'booking@example.com' });
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.recipient, resetEmail)).orderBy(desc(mailOutbox.id)).limit(1);
  const resetToken = /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(mail.textBody)![1];
  return { manageToken, paymentId, paymentKey, feedToken, resetToken, resetEmail };
}

/** A well-formed token nobody was given. */
export const unknownToken = () => randomBytes(32).toString('base64url');
