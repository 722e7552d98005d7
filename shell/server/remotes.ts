// The shell's run-time configuration, `/remotes.json`: where each remote's entry, the API and the error reports live.
// The page reads it (shell/src/federation/runtimeConfig.ts); this server draws the page's policy and hints from it.
import fs from 'node:fs';
import type { RemoteName, RuntimeConfig } from '../src/federation/runtimeConfig';

export type RemoteKey = RemoteName;
export type RemotesJson = RuntimeConfig;

/** How `remotes.json` addresses a remote served at `baseUrl`: its federation entry (no manifest round trip). */
export const remoteEntryUrl = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/remoteEntry.js`;

/** Where a remote's files are served, from its entry's address. */
export const remoteBaseUrl = (entryUrl: string): string => entryUrl.replace(/\/remoteEntry\.js$/, '');

const isHttpUrl = (value: unknown): value is string => {
  try {
    return typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * A remotes.json checked as the server needs it (the page's policy is drawn from these origins): `booking`, `admin`
 * and `api` absolute http(s) addresses, `errorReportUrl` one too if present. Throws an error naming the wrong field.
 */
export function parseRemotesJson(raw: unknown, source: string): RemotesJson {
  const record = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  if (!record) throw new Error(`${source}: expected an object with "booking", "admin" and "api" addresses`);
  for (const key of ['booking', 'admin', 'api', 'errorReportUrl'] as const) {
    if (key === 'errorReportUrl' && record[key] === undefined) continue;
    if (!isHttpUrl(record[key])) throw new Error(`${source}: "${key}" must be an http(s) address, got ${JSON.stringify(record[key])}`);
  }
  const remotes: RemotesJson = { booking: record.booking as string, admin: record.admin as string, api: (record.api as string).replace(/\/+$/, '') };
  if (record.errorReportUrl !== undefined) remotes.errorReportUrl = record.errorReportUrl as string;
  return remotes;
}

/**
 * The shell server's remotes.json when it runs on its own: the file (read again when it changes), with the addresses
 * in the environment taking precedence: BOOKING_REMOTE_URL and ADMIN_REMOTE_URL (where each remote's folder is
 * served), API_URL and ERROR_REPORT_URL. Throws at once when the first reading is wrong; a later wrong edit of the
 * file keeps the last good one (and says so once).
 */
export function remotesSource(file: string, env: NodeJS.ProcessEnv, warn: (line: string) => void = console.error): () => RemotesJson {
  const fromEnv: Record<string, string> = {};
  if (env.BOOKING_REMOTE_URL) fromEnv.booking = remoteEntryUrl(env.BOOKING_REMOTE_URL);
  if (env.ADMIN_REMOTE_URL) fromEnv.admin = remoteEntryUrl(env.ADMIN_REMOTE_URL);
  if (env.API_URL) fromEnv.api = env.API_URL;
  if (env.ERROR_REPORT_URL) fromEnv.errorReportUrl = env.ERROR_REPORT_URL;
  const read = (): RemotesJson => {
    let fromFile: object = {};
    if (fs.existsSync(file)) {
      try {
        fromFile = JSON.parse(fs.readFileSync(file, 'utf8')) as object;
      } catch (error) {
        throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    return parseRemotesJson({ ...fromFile, ...fromEnv }, `${file} with the environment's addresses`);
  };
  const modifiedAt = () => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
  let readAt = modifiedAt();
  let current = read();
  return () => {
    const changedAt = modifiedAt();
    if (changedAt === readAt) return current;
    readAt = changedAt;
    try {
      current = read();
    } catch (error) {
      warn(`remotes.json not changed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return current;
  };
}
