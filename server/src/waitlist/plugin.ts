import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { Gauge, Histogram } from 'prom-client';
import { waitlistSettings, type WaitlistSettings } from 'shared-api/contract';
import { flag, intFrom } from '../base/env';
import { offSlotFreed, onSlotFreed } from '../base/slot-watch';
import { Checkout, putListFirst, removeListFirst, type ListFirst } from '../checkout';
import { runOfferPass, type PassOutcome } from './pass';
import type { WaitlistRules } from './rules';
import { WaitlistService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The fair waitlist (issue 26): its service, its rules (settings and clock) and one offer pass on demand. */
    waitlist: { service: WaitlistService; rules: WaitlistRules; runPass(): Promise<PassOutcome> };
  }
}

/**
 * For the browser journeys only (e2e/journeys/waitlist.e2e.test.ts): `WAITLIST_OFFER_SECONDS` (whole seconds) shortens
 * the offer window so an expiry can be seen, `WAITLIST_QUIET_HOURS=off` makes the journey independent of the time of
 * day it runs, and `WAITLIST_LIVE_ENTRIES_PER_NETWORK` lets every parent of a journey join from the one loopback network
 * (an operator may use it too, for a school whose parents share one network). Unset, brand.config.json's settings stand.
 */
export function withTestOverrides(settings: WaitlistSettings, env: NodeJS.ProcessEnv): WaitlistSettings {
  const seconds = intFrom(env.WAITLIST_OFFER_SECONDS, 0, 'WAITLIST_OFFER_SECONDS');
  const quietOff = env.WAITLIST_QUIET_HOURS !== undefined && !flag(env.WAITLIST_QUIET_HOURS, true);
  const perNetwork = intFrom(env.WAITLIST_LIVE_ENTRIES_PER_NETWORK, 0, 'WAITLIST_LIVE_ENTRIES_PER_NETWORK');
  return {
    ...settings,
    ...(seconds > 0 && { offerMinutes: seconds / 60 }),
    ...(quietOff && { quietHours: { from: '00:00', to: '00:00' } }),
    ...(perNetwork > 0 && { liveEntriesPerNetwork: perNetwork }),
  };
}

/**
 * The waitlist: the `waitlist` queue's handler (one offer pass per job; after a pass, a job at each new offer's end and
 * quiet-hours start), the slot watcher the lower layers call (base/slot-watch.ts), and its metrics. main.ts schedules
 * the pass every 30 s for holds that lapse by time.
 */
export const waitlistPlugin = fp(
  async (app) => {
    const rules: WaitlistRules = { settings: withTestOverrides(waitlistSettings(), process.env), now: () => new Date() };
    const links = { publicSiteUrl: app.config.payments.publicSiteUrl, mailFrom: app.config.payments.mailFrom };
    const poke = () => app.jobs.poke('waitlist');
    const checkout = await Checkout.for(app.db);
    const service = new WaitlistService({ db: app.db, checkout, rules, links, onChange: poke, onMail: () => app.mailQueue.wake() });

    const toMail = new Histogram({
      name: 'waitlist_offer_mail_seconds',
      help: 'Seconds from a slot freeing (its offer made) to the offer mail being queued (quiet hours included)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 36000],
      registers: [app.metrics],
    });
    const toPaid = new Histogram({
      name: 'waitlist_offer_paid_seconds',
      help: 'Seconds from a slot freeing (its offer made) to the offer being paid (booked)',
      buckets: [30, 60, 120, 300, 600, 900, 1200, 1800, 3600],
      registers: [app.metrics],
    });
    new Gauge({
      name: 'waitlist_entries_waiting',
      help: 'Waitlist entries waiting for an offer now',
      registers: [app.metrics],
      async collect() {
        const [row] = ((await app.db.execute(sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE state = 'waiting'`)) as unknown as { rows: { n: number }[] }).rows;
        this.set(Number(row?.n ?? 0));
      },
    });
    new Gauge({
      name: 'waitlist_offers_total',
      help: 'Waitlist offers made, and how they ended (booked, expired, declined), since the start',
      labelNames: ['outcome'],
      registers: [app.metrics],
      async collect() {
        const { rows } = (await app.db.execute(
          sql`SELECT coalesce(outcome, 'live') AS outcome, count(*)::int AS n FROM waitlist_offers GROUP BY 1`,
        )) as unknown as { rows: { outcome: string; n: number }[] };
        const n = (o: string) => Number(rows.find((r) => r.outcome === o)?.n ?? 0);
        this.set({ outcome: 'made' }, rows.reduce((sum, r) => sum + Number(r.n), 0));
        for (const outcome of ['booked', 'expired', 'declined'] as const) this.set({ outcome }, n(outcome));
      },
    });

    const runPass = async (): Promise<PassOutcome> => {
      const outcome = await runOfferPass(app.db, checkout, rules, links);
      const now = rules.now();
      for (const offer of outcome.offered) {
        // The offer's end passes the slot on at once (and the 30 s pass would anyway).
        await app.jobs.send('waitlist', {}, { singletonKey: `end-${offer.id}`, startAfter: offer.expiresAt });
      }
      for (const offer of outcome.mailed) toMail.observe(((offer.mailQueuedAt ?? now).getTime() - offer.createdAt.getTime()) / 1000);
      for (const ended of outcome.ended) if (ended.outcome === 'booked') toPaid.observe((ended.endedAt.getTime() - ended.createdAt.getTime()) / 1000);
      if (outcome.mailed.length + outcome.termEnded.length > 0) {
        app.mailQueue.wake();
        app.whatsapp.wake();
      }
      if (outcome.offered.length + outcome.ended.length > 0)
        app.log.info({ offered: outcome.offered.length, ended: outcome.ended.length, entriesEnded: outcome.entriesEnded }, 'waitlist: offer pass');
      return outcome;
    };
    app.jobs.handle('waitlist', async () => {
      const outcome = await runPass();
      return outcome.offered.length + outcome.mailed.length + outcome.ended.length + outcome.entriesEnded;
    });

    // The checkout asks the list before any public hold; any change that may free a slot runs a pass.
    const listFirst: ListFirst = { claims: (db, slotId, holdTokenHash) => service.claims(db, slotId, holdTokenHash) };
    putListFirst(app.db, listFirst);
    onSlotFreed(app.db, poke);
    app.addHook('onClose', async () => {
      removeListFirst(app.db, listFirst);
      offSlotFreed(app.db, poke);
    });
    app.decorate('waitlist', { service, rules, runPass });
  },
  { name: 'waitlist', dependencies: ['database', 'jobs', 'payment-services', 'metrics'] },
);
