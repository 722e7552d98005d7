// `npm run bench:faults`: the enrolment day through nginx twice, same seed: undisturbed, and with faults (every API
// process rolled, kill -9 of one API process and one shell server, PostgreSQL stopped for 10 s), each on a throwaway
// PostgreSQL cluster of its own (the shared one is never stopped). Written to docs/PERFORMANCE.md side by side.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startInbox } from '../e2e/support/mail';
import { freePort, nginxBinary, NGINX_MISSING, startScaleStack } from '../scripts/stack-scale';
import { loadAverage, today, writeDocSection } from './doc';
import { startCluster } from './faults/cluster';
import { runEnrolmentDay, type RunResult } from './faults/enrolment-day';

const section = '## Enrolment day with faults, through nginx (bench:faults)';
const PARENTS = Number(process.env.BENCH_FAULTS_PARENTS) || 500;
const HOME_REQUESTS = Number(process.env.BENCH_FAULTS_HOME) || 10_000;

async function oneRun(faults: boolean): Promise<RunResult> {
  const cluster = await startCluster();
  const inbox = await startInbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-faults-data-'));
  const ports = { shell: await freePort(), api: await freePort(), booking: await freePort(), admin: await freePort() };
  const stack = await startScaleStack({
    ports,
    databaseUrl: cluster.url,
    log: (line) => console.error(line),
    apiEnv: {
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WAITLIST_QUIET_HOURS: 'off',
      PAYMENT_GATEWAY: 'sandbox',
      SANDBOX_CALLBACK_DELAY_MS: '0',
      SMTP_URL: inbox.url,
      DATA_DIR: dataDir,
      // A killed process's jobs are failed back at pg-boss's next maintenance: every 15 s here (120 s by default).
      JOB_MAINTENANCE_SECONDS: '15',
    },
  });
  console.error(`[${faults ? 'faults' : 'calm'}] nginx's folder (access.log, error.log, home-notes.txt): ${stack.prefix}`);
  try {
    return await runEnrolmentDay({
      stack,
      cluster,
      receivedMessageIds: () => inbox.messages.map((mail) => mail.messageId ?? ''),
      parents: PARENTS,
      addresses: 50,
      slots: 50,
      homeRequests: HOME_REQUESTS,
      arrivalMs: 60_000,
      faults,
      databaseDownMs: 10_000,
      log: (line) => console.error(`[${faults ? 'faults' : 'calm'}] ${line}`),
    });
  } finally {
    await stack.stop();
    await inbox.stop();
    cluster.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const table = (calm: RunResult, faulty: RunResult): string => {
  const row = (what: string, pick: (r: RunResult) => string | number) => `| ${what} | ${pick(calm)} | ${pick(faulty)} |`;
  const ms = (p: { p50: number; p99: number }) => `${p.p50} / ${p.p99} ms`;
  const perLanguage = (r: RunResult) =>
    Object.entries(r.homeReachedShell).map(([lang, n]) => `${lang} ${n}`).join(', ') + ` (bound: ${r.cachePeriods} periods of ${r.cachePeriodS} s)`;
  return [
    '| | undisturbed | with faults |',
    '| --- | --- | --- |',
    row('parents: paid / waitlisted / refused by the network\'s waitlist limit (429) / neither', (r) => `${r.parents}: ${r.paidSeen} / ${r.waitlisted} / ${r.limited} / ${r.unserved}`),
    row('paid payments in the database', (r) => r.paidInDatabase),
    row('booked exactly once (booked slots = paid payments\' slots)', (r) => `${r.paymentsBookedOnce ? 'yes' : 'NO'} (${r.bookedSlots} booked)`),
    row('slots sold twice', (r) => r.slotsSoldTwice),
    row('paid seen by a parent but not in the database', (r) => r.paidSeenMissing),
    row('mails queued / marked sent / received by SMTP', (r) => `${r.mailsQueued} / ${r.mailsSent} / ${r.mailsReceived}`),
    row('mails lost / received twice (of those, not cut by the kill -9)', (r) => `${r.mailsLost} / ${r.mailDuplicates} (${r.mailDuplicatesNotCutByKill})`),
    row('parent requests / 5xx shown to a parent / no answer', (r) => `${r.parentRequests} / ${r.parentServerErrors} / ${r.networkErrors}`),
    row('502 for a request under way at the process killed with -9 (asked again)', (r) =>
      Object.entries(r.cutByKill).map(([what, n]) => `${what} ${n}`).join(', ') || '0'),
    row('retries (503 + Retry-After asked again)', (r) => r.retries),
    row('requests past their 15 s budget', (r) => r.hung),
    row('initiate p50 / p99 (with retries)', (r) => ms(r.initiate)),
    row('`/` p50 / p99', (r) => `${ms(r.home)} (${r.home.count} requests, ${r.home.serverErrors} 5xx or no answer)`),
    row('`/` 5xx or no answer, by status and when', (r) =>
      Object.entries(r.homeFailures).map(([what, n]) => `${what}: ${n}`).join('; ') || 'none'),
    row('while PostgreSQL was down: requests / 503 with Retry-After / longest', (r) =>
      r.databaseDown ? `${r.databaseDown.requests} / ${r.databaseDown.with503RetryAfter} / ${r.databaseDown.longestMs} ms (${r.databaseDown.ms} ms down)` : '—'),
    row('`/` that reached a shell server, per language', perLanguage),
    row('most `/` that reached a shell server in one cache period, per language (bound: 1)', (r) =>
      Object.entries(r.homeReachedShellPerPeriod).map(([lang, n]) => `${lang} ${n}`).join(', ')),
    row('`/` answered with the client page (all / after the first render / of those, outside PostgreSQL being down)', (r) =>
      `${r.homeClientPage} / ${r.homeClientPageAfterFirstRender} / ${r.homeClientPageOutsideOutage}`),
    row('faults', (r) => r.faultsDone.join('; ') || 'none'),
  ].join('\n');
};

async function main() {
  if (!nginxBinary()) {
    console.error(NGINX_MISSING);
    process.exit(1);
  }
  const loadBefore = loadAverage();
  const calm = await oneRun(false);
  console.log(JSON.stringify({ undisturbed: calm }));
  const faulty = await oneRun(true);
  console.log(JSON.stringify({ faults: faulty }));
  const file = writeDocSection(
    section,
    [
      section,
      '',
      `${today()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${loadBefore} before and ${loadAverage()} after;`,
      `everything on one machine: nginx, 3 API processes, 2 shell servers, a throwaway PostgreSQL cluster per run, a fake SMTP`,
      `server and the load. ${PARENTS} parents from 50 networks (127.0.N.x) arriving over 60 s, 50 slots; reserve → initiate →`,
      `pay on the sandbox → callback, the waitlist for those who find nothing; ${HOME_REQUESTS} requests for \`/\` (en and ms) meanwhile.`,
      'A 503 with Retry-After is asked again after that wait, as the booking dialog does; any other 5xx counts as shown to a parent.',
      '',
      table(calm, faulty),
      '',
    ].join('\n'),
  );
  console.log(`written to ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
