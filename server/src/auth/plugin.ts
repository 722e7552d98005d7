import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { KnownDevices } from './known-device';
import { hashPassword, PASSWORD_COST, type ScryptCost } from './passwords';
import { PasswordWork, type PasswordWorkOutcome, type QueueOptions } from './password-work';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's password hashing: its scrypt cost and the one queue every hash goes through. */
    passwords: Passwords;
  }
}

export type Passwords = {
  cost: ScryptCost;
  work: PasswordWork;
  /** Hashes a new password of the account `lane` (its email) when its turn comes (see PasswordWork.run). */
  hash: (lane: string, password: string, options?: QueueOptions) => Promise<string>;
  devices: () => Promise<KnownDevices>;
};

const measured = new Map<string, Promise<number>>();
/** How long one hash at `cost` takes on this machine (measured once per process and cost). */
function measuredHashMs(cost: ScryptCost): Promise<number> {
  const key = `${cost.N}$${cost.r}$${cost.p}`;
  let ms = measured.get(key);
  if (!ms) {
    const started = performance.now();
    measured.set(key, (ms = hashPassword(randomBytes(16).toString('hex'), cost).then(() => performance.now() - started)));
  }
  return ms;
}

/** Aborted when the request's client hangs up before its answer is sent. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // Gone already (while its body or the hooks before the handler were read), or later.
  if (reply.raw.socket?.destroyed) controller.abort();
  else
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
  return controller.signal;
}

const OUTCOMES: PasswordWorkOutcome[] = ['hashed', 'imitated', 'refused', 'abandoned'];

/** The password queue of this app, its metrics, and its first estimate measured before the app takes requests. */
export const passwordsPlugin = fp(
  async (app) => {
    const checks = new Counter({
      name: 'booking_password_checks_total',
      help: 'Password checks by outcome: hashed, imitated (no such account: no hash), refused (queue full, 429), abandoned (client hung up)',
      labelNames: ['outcome'],
      registers: [app.metrics],
    });
    for (const outcome of OUTCOMES) checks.inc({ outcome }, 0);
    const cost = app.config.passwordCost ?? PASSWORD_COST;
    const work = new PasswordWork({ ...app.config.passwordWork, onCount: (outcome) => checks.inc({ outcome }) });
    new Gauge({
      name: 'booking_password_queue_waiting',
      help: 'Requests waiting for a password hash in this process',
      registers: [app.metrics],
      collect() {
        this.set(work.waiting);
      },
    });
    new Gauge({
      name: 'booking_password_queue_hashing',
      help: 'Password hashes running now in this process',
      registers: [app.metrics],
      collect() {
        this.set(work.hashing);
      },
    });
    app.decorate('passwords', {
      cost,
      work,
      hash: (lane, password, options) => work.run(lane, () => hashPassword(password, cost), options),
      devices: () => KnownDevices.load(app.db),
    } satisfies Passwords);
    app.addHook('onReady', async () => {
      work.hashMs = await measuredHashMs(cost);
    });
  },
  { name: 'passwords', dependencies: ['database', 'metrics'] },
);
