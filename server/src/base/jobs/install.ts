import PgBoss from 'pg-boss';
import { bossOptions, CRON_QUEUE, JOB_SCHEMA, QUEUE_POLICY, QUEUES, type QueueName, type SqlExecutor } from './engine';

/**
 * Creates or upgrades pg-boss's schema and its queues (each queue is a partition of pgboss.job: only the schema's
 * owner can add one), as part of the migration step, so the API may run as a role that owns nothing (db/api-role.ts).
 */
export async function installJobs(database: SqlExecutor): Promise<void> {
  const boss = new PgBoss(bossOptions(database, { migrate: true, supervise: false, schedule: false }));
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const name of [...QUEUES, CRON_QUEUE]) {
      const policy = name === CRON_QUEUE ? 'standard' : QUEUE_POLICY[name as QueueName];
      const queue = await boss.getQueue(name);
      if (!queue) await boss.createQueue(name, { name, policy });
      else if (queue.policy !== policy) await boss.updateQueue(name, { name, policy });
    }
  } finally {
    await boss.stop({ graceful: false, close: false });
  }
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** What the API's role may do in pg-boss's schema: use its tables (jobs, queues, schedules) and functions, not change them. */
export async function grantJobs(exec: SqlExecutor['exec'], role: string): Promise<void> {
  const r = quote(role);
  for (const statement of [
    `GRANT USAGE ON SCHEMA ${JOB_SCHEMA} TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOB_SCHEMA} TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${JOB_SCHEMA} TO ${r}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${JOB_SCHEMA} TO ${r}`,
  ])
    await exec(statement);
}
