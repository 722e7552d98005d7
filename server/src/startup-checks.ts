import { eq } from 'drizzle-orm';
import type { Config } from './config';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from './config';
import type { DbOrTx } from './base/db/connection';
import { users } from './auth';
import { countUsers } from './auth';
import { verifyPassword } from './auth';
import { flag } from './base/env';

/** The shortest ADMIN_PASSWORD a production start accepts. */
export const PRODUCTION_ADMIN_PASSWORD_MIN = 12;

export const isProduction = (env: NodeJS.ProcessEnv = process.env): boolean => env.NODE_ENV === 'production';

/**
 * What stops a production start before the database is opened: the demo login, a missing or weak admin password,
 * and the sandbox gateway (anyone could press Pay without paying) unless ALLOW_SANDBOX_GATEWAY says it is on purpose.
 */
export function productionConfigProblems(env: NodeJS.ProcessEnv, config: Config): string[] {
  const problems: string[] = [];
  if (!env.ADMIN_EMAIL)
    problems.push('ADMIN_EMAIL is not set (the first staff account would be the demo login).');
  else if (config.adminEmail === DEMO_ADMIN_EMAIL)
    problems.push(`ADMIN_EMAIL is the demo address ${DEMO_ADMIN_EMAIL}.`);
  if (!env.ADMIN_PASSWORD) problems.push('ADMIN_PASSWORD is not set.');
  else if (env.ADMIN_PASSWORD === DEMO_ADMIN_PASSWORD) problems.push('ADMIN_PASSWORD is the demo password.');
  else if (env.ADMIN_PASSWORD.length < PRODUCTION_ADMIN_PASSWORD_MIN)
    problems.push(`ADMIN_PASSWORD is shorter than ${PRODUCTION_ADMIN_PASSWORD_MIN} characters.`);
  if (config.payments.gateway === 'sandbox' && !flag(env.ALLOW_SANDBOX_GATEWAY, false))
    problems.push(
      'PAYMENT_GATEWAY is the sandbox, where anyone can press Pay without paying: set PAYMENT_GATEWAY=chip, or ALLOW_SANDBOX_GATEWAY=1 for a staging system.',
    );
  return problems;
}

/** What stops a production start once the database is open: a demo account that still accepts the demo password. */
export async function productionDatabaseProblems(db: DbOrTx): Promise<string[]> {
  if ((await countUsers(db)) === 0) return [];
  const [demo] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, DEMO_ADMIN_EMAIL));
  if (demo && (await verifyPassword(DEMO_ADMIN_PASSWORD, demo.passwordHash)))
    return [
      `The demo staff account ${DEMO_ADMIN_EMAIL} still has the demo password: change its password or remove it.`,
    ];
  return [];
}
