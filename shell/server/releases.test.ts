import {
  addRelease,
  bucketOf,
  compatibleChoice,
  emptyPointer,
  parsePointer,
  parsePublished,
  previousLive,
  published,
  promote,
  rollback,
  versionForBucket,
  versionOf,
  type Pointer,
  type ReleaseRecord,
} from './releases';
import type { Contract } from './contract';

const shell: Contract = { bundle: 'shell', shellContract: '1.2.0', shared: { react: '19.3.1' } };
const needs = (shellContract: string, react = '^19.0.0'): Contract => ({ bundle: 'booking-remote', shellContract, shared: { react } });
const record = (version: string, at: string, contract = needs('^1.0.0')): ReleaseRecord => ({ version, commit: 'abc1234', at, by: 'ana@example.my', contract });
const step = (at: string) => ({ at, by: 'ben@example.my' });

/** v1, v2, v3 released one after the other. */
function threeReleases(keep = 5): Pointer {
  let pointer = emptyPointer('booking-remote');
  for (const [i, version] of ['v1', 'v2', 'v3'].entries()) pointer = addRelease(pointer, record(version, `2026-01-0${i + 1}T00:00:00Z`), { keep }).pointer;
  return pointer;
}

describe('the releases pointer', () => {
  it('names a version by its content hash and commit', () => {
    expect(versionOf('4302630a90ffee', '99bb7861234')).toBe('4302630a90-99bb786');
  });

  it('records each release with its time, version, commit and who released it, and makes it live', () => {
    const pointer = threeReleases();
    expect(pointer.live).toBe('v3');
    expect(pointer.releases.map((r) => r.version)).toEqual(['v1', 'v2', 'v3']);
    expect(pointer.history).toEqual([
      { at: '2026-01-01T00:00:00Z', action: 'release', version: 'v1', commit: 'abc1234', by: 'ana@example.my', live: 'v1' },
      { at: '2026-01-02T00:00:00Z', action: 'release', version: 'v2', commit: 'abc1234', by: 'ana@example.my', live: 'v2' },
      { at: '2026-01-03T00:00:00Z', action: 'release', version: 'v3', commit: 'abc1234', by: 'ana@example.my', live: 'v3' },
    ]);
  });

  it('keeps the last N releases and says which folders may go, never the live one', () => {
    const released = addRelease(threeReleases(2), record('v4', '2026-01-04T00:00:00Z'), { keep: 2 });
    expect(released.pointer.releases.map((r) => r.version)).toEqual(['v3', 'v4']);
    expect(released.removed).toEqual(['v2']);
    // Rolled back to v3, then two more releases with keep 1: v3 is gone only once it is no longer live.
    const back = rollback(released.pointer, step('2026-01-05T00:00:00Z'));
    expect(back.live).toBe('v3');
    const after = addRelease(back, record('v5', '2026-01-06T00:00:00Z'), { keep: 1 });
    expect(after.removed).toEqual(['v3', 'v4']);
  });

  it('rolls back one step at a time to the release live before, then to the one before that, without a rebuild', () => {
    const once = rollback(threeReleases(), step('2026-01-04T00:00:00Z'));
    expect(once.live).toBe('v2');
    expect(once.history.at(-1)).toEqual({ at: '2026-01-04T00:00:00Z', action: 'rollback', version: 'v2', commit: 'abc1234', by: 'ben@example.my', live: 'v2' });
    expect(rollback(once, step('2026-01-05T00:00:00Z')).live).toBe('v1');
    expect(rollback(threeReleases(), { ...step('2026-01-05T00:00:00Z'), version: 'v1' }).live).toBe('v1');
    expect(() => rollback(threeReleases(), { ...step('x'), version: 'v9' })).toThrow('v9 is not a retained release');
    expect(() => rollback(addRelease(emptyPointer('shell'), record('v1', 'x')).pointer, step('y'))).toThrow('no earlier release');
  });

  it('runs a canary beside the live release; promote makes it live, rollback ends it', () => {
    const canary = addRelease(threeReleases(), record('v4', '2026-01-04T00:00:00Z'), { canaryPercent: 10 }).pointer;
    expect(canary.live).toBe('v3');
    expect(canary.canary).toEqual({ version: 'v4', percent: 10 });
    expect(canary.history.at(-1)).toMatchObject({ action: 'canary', version: 'v4', percent: 10, live: 'v3' });

    const promoted = promote(canary, step('2026-01-05T00:00:00Z'));
    expect(promoted).toMatchObject({ live: 'v4', canary: undefined });
    expect(promoted.history.at(-1)).toMatchObject({ action: 'promote', version: 'v4', live: 'v4' });

    const ended = rollback(canary, step('2026-01-05T00:00:00Z'));
    expect(ended).toMatchObject({ live: 'v3', canary: undefined });
    expect(ended.history.at(-1)).toMatchObject({ action: 'end-canary', version: 'v4', live: 'v3' });
    // A canary that never went live is not where a rollback goes back to.
    expect(previousLive({ ...ended, live: 'v4' })).toBe('v3');
    expect(() => addRelease(threeReleases(), record('v4', 'x'), { canaryPercent: 100 })).toThrow('between 0 and 100');
    expect(() => addRelease(emptyPointer('booking-remote'), record('v1', 'x'), { canaryPercent: 10 })).toThrow('no live release yet');
  });
});

describe('the canary bucket', () => {
  it('is the same for a visitor on every request and differs between canaries', () => {
    expect(bucketOf('visitor-a', 'v4')).toBe(bucketOf('visitor-a', 'v4'));
    const ids = Array.from({ length: 200 }, (_, i) => `visitor-${i}`);
    expect(ids.filter((id) => bucketOf(id, 'v4') !== bucketOf(id, 'v5')).length).toBeGreaterThan(180);
  });

  it('spreads visitors evenly over [0, 100): a 10 % canary gets about a tenth of them', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `visitor-${i}`);
    const buckets = ids.map((id) => bucketOf(id, 'v4'));
    expect(Math.min(...buckets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...buckets)).toBeLessThan(100);
    const pointer = addRelease(threeReleases(), record('v4', 'x'), { canaryPercent: 10 }).pointer;
    const onCanary = ids.filter((id) => versionForBucket(pointer, id) === 'v4').length;
    expect(onCanary).toBeGreaterThan(900);
    expect(onCanary).toBeLessThan(1100);
    // No visitor id (no cookie yet): the live release.
    expect(versionForBucket(pointer, undefined)).toBe('v3');
  });
});

describe('the shell contract check of a release', () => {
  it('loads the wanted release when the shell meets its needs', () => {
    expect(compatibleChoice(threeReleases(), 'v3', shell)).toEqual({ version: 'v3' });
  });

  it('falls back to the last compatible release that was live, naming what the refused one needs', () => {
    let pointer = threeReleases();
    pointer = addRelease(pointer, record('v4', 'x', needs('^2.0.0')), {}).pointer;
    expect(compatibleChoice(pointer, 'v4', shell)).toEqual({
      version: 'v3',
      refused: { version: 'v4', problems: ['booking-remote needs shell contract ^2.0.0; the shell provides 1.2.0'] },
    });
  });

  it('gives none when no retained release fits (the remote error panel)', () => {
    const pointer = addRelease(emptyPointer('booking-remote'), record('v1', 'x', needs('^1.0.0', '^20.0.0'))).pointer;
    expect(compatibleChoice(pointer, 'v1', shell)).toEqual({
      version: undefined,
      refused: { version: 'v1', problems: ['booking-remote needs react ^20.0.0; the shell provides 19.3.1'] },
    });
  });
});

describe('the published pointer (issue 35)', () => {
  it('is the record without anyone\'s name, and reads back the same', () => {
    const pointer = published(threeReleases());
    expect(JSON.stringify(pointer)).not.toContain('@');
    expect(pointer.releases.map((r) => r.version)).toEqual(['v1', 'v2', 'v3']);
    expect(parsePublished(JSON.parse(JSON.stringify(pointer)), 'booking-remote')).toEqual(pointer);
    // An older layout's record read as a pointer loses its names too.
    expect(JSON.stringify(parsePublished(threeReleases(), 'booking-remote'))).not.toContain('@');
  });

  it('refuses a pointer or record naming anything but versions, or a hint outside its release', () => {
    const good = threeReleases();
    const wrong: [string, object][] = [
      ['the live version', { ...good, live: '../../../shell' }],
      ['the live version', { ...good, live: 'v3/../../x' }],
      ['the live version', { ...good, live: '.hidden' }],
      ['the canary', { ...good, canary: { version: '..', percent: 10 } }],
      ['the canary share', { ...good, canary: { version: 'v3', percent: 'all' } }],
      ['a release', { ...good, releases: [...good.releases, { ...good.releases[0], version: 'v4#x' }] }],
      ['a step', { ...good, history: [...good.history, { ...good.history[0], version: '../v1' }] }],
      ['a chunk', { ...good, releases: [{ ...good.releases[0], hints: { routes: ['/etc/passwd'], words: {} } }] }],
      ['a chunk', { ...good, releases: [{ ...good.releases[0], hints: { routes: [], words: { ms: 'a/../../b.js' } } }] }],
    ];
    for (const [what, pointer] of wrong) {
      expect(() => parsePublished(pointer, 'booking-remote')).toThrow(new RegExp(`as ${what}`));
      expect(() => parsePointer(pointer, 'booking-remote')).toThrow('refused');
    }
    expect(parsePointer(good, 'booking-remote')).toEqual(good);
  });
});
