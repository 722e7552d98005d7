// A bundle's releases pointer, `releases.json` (in its releases folder, served at `<bundle's host>/releases/`): the live
// version, a canary if one runs, the retained releases (each with its contract) and the history of what was done.
// Pure functions; `npm run release` / `releases` / `rollback` (scripts/release.ts) write it, the shell's server reads
// it per request (live-releases.ts).
import { createHash } from 'node:crypto';
import { contractMismatches, type Contract } from './contract';

export type ReleaseRecord = {
  version: string;
  commit: string;
  /** ISO time of the release. */
  at: string;
  by: string;
  /** The build's contract.json (a build from before contracts: none, and it is not checked). */
  contract?: Contract;
  /** A remote's first-load chunks, for the shell's preload hints: its routes' and, per language, the timetable's words. */
  hints?: { routes: string[]; words: Record<string, string> };
};

export type HistoryAction = 'release' | 'canary' | 'promote' | 'rollback' | 'end-canary';

export type HistoryEntry = {
  at: string;
  action: HistoryAction;
  version: string;
  commit?: string;
  by: string;
  /** The live version after this step. */
  live: string;
  /** A canary's share of visitors, in %. */
  percent?: number;
};

export type Canary = { version: string; percent: number };

export type Pointer = {
  bundle: string;
  live?: string;
  canary?: Canary;
  /** Retained releases, oldest first (older ones are removed with their folders, see `prune`). */
  releases: ReleaseRecord[];
  /** Every step, oldest first. */
  history: HistoryEntry[];
};

export const POINTER_FILE = 'releases.json';
/** Releases kept (their folders too) unless `--keep` / RELEASES_KEEP says otherwise: open pages keep their chunks. */
export const DEFAULT_KEEP = 5;

/** `<content hash>-<commit>`: the same files released twice are the same version. */
export const versionOf = (contentHash: string, commit: string): string => `${contentHash.slice(0, 10)}-${commit.slice(0, 7)}`;

export const isVersionName = (value: string): boolean => /^[0-9a-z][0-9a-z.-]{0,63}$/i.test(value);

export const emptyPointer = (bundle: string): Pointer => ({ bundle, releases: [], history: [] });

export function parsePointer(raw: unknown, bundle: string): Pointer {
  const record = raw as Partial<Pointer> | null;
  if (!record || !Array.isArray(record.releases) || !Array.isArray(record.history)) throw new Error(`${bundle}: ${POINTER_FILE} is not a releases pointer`);
  return { bundle, live: record.live, canary: record.canary, releases: record.releases, history: record.history };
}

export const recordOf = (pointer: Pointer, version: string | undefined): ReleaseRecord | undefined =>
  version === undefined ? undefined : pointer.releases.find((release) => release.version === version);

/** Versions that have been live for everyone at some time (a canary never promoted is not one). */
const everLive = (pointer: Pointer): Set<string> => new Set(pointer.history.map((entry) => entry.live).filter(Boolean));

type Step = { at: string; by: string };

/**
 * The pointer after releasing `record`: live for everyone, or with `canaryPercent` a canary beside the live one.
 * Returns the versions whose folders may go (older than the last `keep`, never the live one or the canary).
 */
export function addRelease(pointer: Pointer, record: ReleaseRecord, options: { canaryPercent?: number; keep?: number } = {}): { pointer: Pointer; removed: string[] } {
  const { canaryPercent } = options;
  if (canaryPercent !== undefined && !(canaryPercent > 0 && canaryPercent < 100)) throw new Error(`--canary takes a share between 0 and 100 (%), got ${canaryPercent}`);
  if (canaryPercent !== undefined && !pointer.live) throw new Error(`${pointer.bundle} has no live release yet: release it without --canary first`);
  if (canaryPercent !== undefined && record.version === pointer.live) throw new Error(`${record.version} is already live`);
  const releases = [...pointer.releases.filter((release) => release.version !== record.version), recordOf(pointer, record.version) ?? record];
  const live = canaryPercent === undefined ? record.version : pointer.live!;
  const next: Pointer = {
    ...pointer,
    live,
    canary: canaryPercent === undefined ? undefined : { version: record.version, percent: canaryPercent },
    releases,
    history: [
      ...pointer.history,
      {
        at: record.at,
        action: canaryPercent === undefined ? 'release' : 'canary',
        version: record.version,
        commit: record.commit,
        by: record.by,
        live,
        ...(canaryPercent === undefined ? {} : { percent: canaryPercent }),
      },
    ],
  };
  return prune(next, options.keep ?? DEFAULT_KEEP);
}

/** Keeps the newest `keep` releases (plus the live one and the canary, wherever they are). */
export function prune(pointer: Pointer, keep: number): { pointer: Pointer; removed: string[] } {
  const protectedVersions = new Set([pointer.live, pointer.canary?.version].filter(Boolean));
  const newest = new Set(pointer.releases.slice(-Math.max(1, keep)).map((release) => release.version));
  const kept = pointer.releases.filter((release) => newest.has(release.version) || protectedVersions.has(release.version));
  const removed = pointer.releases.filter((release) => !kept.includes(release)).map((release) => release.version);
  return { pointer: { ...pointer, releases: kept }, removed };
}

/** The canary made live for everyone. */
export function promote(pointer: Pointer, step: Step): Pointer {
  if (!pointer.canary) throw new Error(`${pointer.bundle} has no canary to promote`);
  const { version } = pointer.canary;
  return {
    ...pointer,
    live: version,
    canary: undefined,
    history: [...pointer.history, { ...step, action: 'promote', version, commit: recordOf(pointer, version)?.commit, live: version }],
  };
}

/** The retained release that was live before the live one (the one `rollback` goes back to by default). */
export function previousLive(pointer: Pointer): string | undefined {
  const wasLive = everLive(pointer);
  const index = pointer.releases.findIndex((release) => release.version === pointer.live);
  for (let i = (index < 0 ? pointer.releases.length : index) - 1; i >= 0; i--) {
    if (wasLive.has(pointer.releases[i].version)) return pointer.releases[i].version;
  }
  return undefined;
}

/**
 * One step back, no rebuild: a running canary ends (everyone on the live version); otherwise `version` (a retained
 * release) or the previous live one becomes live.
 */
export function rollback(pointer: Pointer, step: Step & { version?: string }): Pointer {
  if (pointer.canary && step.version === undefined) {
    const live = pointer.live!;
    return { ...pointer, canary: undefined, history: [...pointer.history, { at: step.at, by: step.by, action: 'end-canary', version: pointer.canary.version, live }] };
  }
  const target = step.version ?? previousLive(pointer);
  if (!target) throw new Error(`${pointer.bundle}: no earlier release to roll back to`);
  const record = recordOf(pointer, target);
  if (!record) throw new Error(`${pointer.bundle}: ${target} is not a retained release (see npm run releases -- ${pointer.bundle})`);
  return {
    ...pointer,
    live: target,
    canary: undefined,
    history: [...pointer.history, { at: step.at, by: step.by, action: 'rollback', version: target, commit: record.commit, live: target }],
  };
}

/**
 * A visitor's place in [0, 100) for a canary: from the visitor's id (a first-party cookie) and the canary's version,
 * so a visitor stays on one side for the whole canary and each canary draws its own share of visitors.
 */
export function bucketOf(visitorId: string, salt: string): number {
  const digest = createHash('sha256').update(`${salt}\u0000${visitorId}`).digest();
  return (digest.readUInt32BE(0) % 10_000) / 100;
}

/** The version a visitor gets: the canary when their bucket falls in its share, else the live one. */
export function versionForBucket(pointer: Pointer, visitorId: string | undefined): string | undefined {
  const { canary } = pointer;
  if (canary && visitorId !== undefined && bucketOf(visitorId, canary.version) < canary.percent) return canary.version;
  return pointer.live;
}

export type Choice = {
  /** The version to load; undefined: none can be loaded (the remote's error panel). */
  version?: string;
  /** Set when the wanted version was refused: what and why. */
  refused?: { version: string; problems: string[] };
};

/**
 * `wanted` if the shell provides what it needs, else the newest retained release that was live and is compatible
 * (the "last compatible version from the history"), else none.
 */
export function compatibleChoice(pointer: Pointer, wanted: string | undefined, provides: Contract | undefined): Choice {
  if (wanted === undefined) return {};
  const problemsOf = (version: string) => {
    const needs = recordOf(pointer, version)?.contract;
    return needs && provides ? contractMismatches(needs, provides) : [];
  };
  const problems = problemsOf(wanted);
  if (!problems.length) return { version: wanted };
  const wasLive = everLive(pointer);
  const fallback = [...pointer.releases].reverse().find((release) => release.version !== wanted && wasLive.has(release.version) && !problemsOf(release.version).length);
  return { version: fallback?.version, refused: { version: wanted, problems } };
}
