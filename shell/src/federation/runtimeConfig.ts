// Where the remotes and the API live, read at run time so a remote can move without rebuilding the shell.
export type RemoteName = 'booking' | 'admin';

/** A remote version the shell's server did not load because this shell does not meet its contract (shell/server/contract.ts). */
export type RefusedRelease = { remote: RemoteName; version: string; problems: string[] };

/**
 * `errorReportUrl`: where the error boundaries post browser errors (`reportError`); absent, nothing is sent.
 * `versions`: the release of each remote this page loads (named in error reports); `refused`: releases passed over.
 */
export type RuntimeConfig = Record<RemoteName, string> & {
  api: string;
  errorReportUrl?: string;
  versions?: Partial<Record<RemoteName, string>>;
  refused?: RefusedRelease[];
};

/** The release of each remote this page loads (remotes.json `versions`, set when registered), for error reports. */
export const remoteVersions: Partial<Record<RemoteName, string>> = {};

declare const process: { env: Record<string, string | undefined> };

/** Used when remotes.json cannot be read: the local ports of `npm start` / `npm run dev`. */
export const defaultRuntimeConfig: RuntimeConfig = {
  booking: 'http://localhost:3001/remoteEntry.js',
  admin: 'http://localhost:3002/remoteEntry.js',
  api: process.env.API_BASE_URL || 'http://localhost:4000',
};

const isUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    new URL(value, 'http://base.invalid');
    return true;
  } catch {
    return false;
  }
};

/** Keeps only well-formed entries; anything missing or malformed falls back to the default. */
export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const source = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const pick = (key: RemoteName | 'api') => (isUrl(source[key]) ? (source[key] as string) : defaultRuntimeConfig[key]);
  // Remotes are addressed by their entry; a remotes.json written for manifests still works.
  const entry = (key: RemoteName) => pick(key).replace(/\/mf-manifest\.json$/, '/remoteEntry.js');
  const config: RuntimeConfig = { booking: entry('booking'), admin: entry('admin'), api: pick('api').replace(/\/+$/, '') };
  const reportUrl = source.errorReportUrl;
  if (typeof reportUrl === 'string' && /^https?:\/\//.test(reportUrl) && isUrl(reportUrl)) config.errorReportUrl = reportUrl;
  // Written by the shell's server (live-releases.ts): passed on as they are, used only in error reports.
  if (source.versions && typeof source.versions === 'object') config.versions = source.versions as RuntimeConfig['versions'];
  if (Array.isArray(source.refused)) config.refused = source.refused as RefusedRelease[];
  return config;
}

export async function loadRuntimeConfig(url = '/remotes.json', fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    // The server marks remotes.json no-cache; a plain fetch also lets the HTML's preload hint be reused.
    const response = await fetchImpl(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return parseRuntimeConfig(await response.json());
  } catch (error) {
    console.warn(`remotes.json could not be read (${String(error)}); using the default addresses.`);
    return defaultRuntimeConfig;
  }
}
