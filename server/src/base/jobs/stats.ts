import { JOB_SCHEMA, QUEUES, type QueueName, type SqlExecutor } from './engine';

export type QueueStats = { queue: QueueName; waiting: number; active: number; failed: number; oldestWaitingSeconds: number };

/** Failed jobs are counted this long (pg-boss moves them to its archive after 12 hours and deletes them after 7 days). */
export const FAILED_JOBS_DAYS = 7;

/**
 * Each queue's jobs as a monitor sees them (database clock): waiting (queued or waiting for a retry), running, failed
 * (retries spent, in the last FAILED_JOBS_DAYS, archived or not), and the age of the oldest waiting one.
 */
export async function queueStats(database: SqlExecutor): Promise<QueueStats[]> {
  const { rows } = await database.exec(
    `WITH failed AS (
       SELECT name, count(*)::int AS n FROM (
         SELECT name FROM ${JOB_SCHEMA}.job WHERE state = 'failed' AND completed_on > now() - make_interval(days => $1)
         UNION ALL
         SELECT name FROM ${JOB_SCHEMA}.archive WHERE state = 'failed' AND completed_on > now() - make_interval(days => $1)
       ) f GROUP BY name
     ), live AS (
       SELECT name,
              count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting,
              count(*) FILTER (WHERE state = 'active')::int AS active,
              coalesce(extract(epoch FROM now() - min(created_on) FILTER (WHERE state IN ('created', 'retry'))), 0)::float8 AS oldest
         FROM ${JOB_SCHEMA}.job WHERE state < 'completed' GROUP BY name
     )
     SELECT q.name, coalesce(l.waiting, 0) AS waiting, coalesce(l.active, 0) AS active, coalesce(f.n, 0) AS failed, coalesce(l.oldest, 0) AS oldest
       FROM unnest($2::text[]) AS q(name) LEFT JOIN live l ON l.name = q.name LEFT JOIN failed f ON f.name = q.name`,
    [FAILED_JOBS_DAYS, [...QUEUES]],
  );
  return rows.map((r) => ({
    queue: r.name as QueueName,
    waiting: Number(r.waiting),
    active: Number(r.active),
    failed: Number(r.failed),
    oldestWaitingSeconds: Number(r.oldest),
  }));
}

export type FailedJobs = { queue: string; failed: number; lastFailedAt: Date; lastError: string | null };

/** Queues with jobs that spent their retries in the last FAILED_JOBS_DAYS (archived or not): how many, the last one's time and error. */
export async function failedJobs(database: SqlExecutor): Promise<FailedJobs[]> {
  const { rows } = await database.exec(
    `WITH failed AS (
       SELECT name, completed_on, output FROM ${JOB_SCHEMA}.job WHERE state = 'failed' AND completed_on > now() - make_interval(days => $1)
       UNION ALL
       SELECT name, completed_on, output FROM ${JOB_SCHEMA}.archive WHERE state = 'failed' AND completed_on > now() - make_interval(days => $1)
     )
     SELECT DISTINCT ON (name) name, count(*) OVER (PARTITION BY name)::int AS failed, completed_on AS last, left(output->>'message', 300) AS error
       FROM failed ORDER BY name, completed_on DESC`,
    [FAILED_JOBS_DAYS],
  );
  return rows.map((r) => ({ queue: String(r.name), failed: Number(r.failed), lastFailedAt: new Date(r.last as string), lastError: (r.error as string | null) ?? null }));
}
