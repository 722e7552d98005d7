import { eq } from 'drizzle-orm';
import { addDays, dateInMY } from 'shared-api/contract';
import brandConfig from '../../../brand.config.json';
import { findPerson, personCsv } from '../../src/privacy/person';
import { ANONYMISED, applyRetention } from '../../src/privacy/retention';
import { waitlistEntries } from '../../src/waitlist/tables';
import { startPaymentsApp, type PayCtx } from '../payments/support';
import { entries, fixClock, joinMany, parent, tomorrowAt } from './support';

// Waitlist entries in a person's data (PDPA access) and in the retention policy (anonymised 30 days after they end).
jest.setTimeout(60_000);

describe('waitlist entries and personal data', () => {
  let ctx: PayCtx;
  beforeAll(async () => {
    ctx = await startPaymentsApp('pglite');
    const clock = fixClock(ctx, tomorrowAt('10:00'));
    const today = dateInMY(clock.now);
    await joinMany(ctx, [1, 2, 3], { fromDate: today, toDate: addDays(today, 7) });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("a person's data lists their waitlist entries and the consent each names, never the link's hash", async () => {
    const records = await findPerson(ctx.database.db, { email: parent(1).email });
    expect(records.waitlistEntries).toHaveLength(1);
    expect(records.waitlistEntries[0]).toMatchObject({ email: parent(1).email, phone: parent(1).phone, state: 'waiting' });
    expect(records.waitlistEntries[0]).not.toHaveProperty('tokenHash');
    expect(records.consents.map((c) => c.id)).toContain((await entries(ctx))[0].consentId);
    expect(personCsv(records)).toContain('waitlistEntries,');
    // Found by phone: the entry and the mail it was sent (which names the entry's address, not the phone).
    const byPhone = await findPerson(ctx.database.db, { phone: parent(2).phone });
    expect(byPhone.waitlistEntries).toHaveLength(1);
    expect(byPhone.mails.map((m) => [m.kind, m.recipient])).toEqual([
      ['waitlist_confirm', parent(2).email],
      ['waitlist_joined', parent(2).email],
    ]);
  });

  it('retention anonymises an entry 30 days after it ended, and nothing live or more recent', async () => {
    const now = new Date();
    const [one, two] = await entries(ctx);
    await ctx.database.db.update(waitlistEntries).set({ state: 'expired', endedAt: new Date(now.getTime() - 31 * 86_400_000) }).where(eq(waitlistEntries.id, one.id));
    await ctx.database.db.update(waitlistEntries).set({ state: 'left', endedAt: new Date(now.getTime() - 29 * 86_400_000) }).where(eq(waitlistEntries.id, two.id));
    const counts = await applyRetention(ctx.database.db, now, brandConfig.retention);
    expect(counts.waitlistEntries).toBe(1);
    const after = await entries(ctx);
    expect(after[0]).toMatchObject({ name: ANONYMISED, email: `anonymised-${one.id}@invalid`, phone: '', childName: null });
    expect(after[1]).toMatchObject({ name: parent(2).name, email: parent(2).email });
    expect(after[2]).toMatchObject({ name: parent(3).name, state: 'waiting' });
    expect((await applyRetention(ctx.database.db, now, brandConfig.retention)).waitlistEntries).toBe(0);
  });
});
