import { ErrorCode } from 'shared-api/contract';
import { AppError, ClientGoneError } from '../../src/base/errors';
import { PasswordWork, PasswordWorkMessage } from '../../src/auth/password-work';

// The password queue on its own, with hashes that end when the test says so: who runs, in what order, who is refused.

type Hash = { lane: string; done: () => void };

/** A queue whose "hashes" finish only when `finish` is called; `started` lists them in the order they began. */
function queue(options: ConstructorParameters<typeof PasswordWork>[0] = {}) {
  const work = new PasswordWork({ hashesAtOnce: 2, maxWaitMs: 3_000, ...options });
  work.hashMs = 400;
  const started: Hash[] = [];
  const submit = (lane: string, opts: Parameters<PasswordWork['run']>[2] = {}) =>
    work.run(lane, () => new Promise<string>((resolve) => started.push({ lane, done: () => resolve(lane) })), opts);
  const finish = async (lane?: string) => {
    const i = lane === undefined ? 0 : started.findIndex((h) => h.lane === lane);
    started.splice(i, 1)[0].done();
    // Let the queue start the next one.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { work, started, submit, finish };
}

const settled = async <T>(p: Promise<T>) => p.then((value) => ({ value }), (error: unknown) => ({ error }));

describe('the password queue', () => {
  it('runs two hashes at once; the others wait and start as slots free up', async () => {
    const { work, started, submit, finish } = queue();
    const answers = ['a', 'b', 'c', 'd'].map((lane) => submit(lane));
    expect(started.map((h) => h.lane)).toEqual(['a', 'b']);
    expect(work.waiting).toBe(2);
    await finish('a');
    expect(started.map((h) => h.lane)).toEqual(['b', 'c']);
    await finish();
    await finish();
    await finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
    expect(work.counts).toEqual({ hashed: 4, imitated: 0, refused: 0, abandoned: 0 });
  });

  it('serves accounts in turn: a colleague waits behind one hash of a flooded account, not behind the flood', async () => {
    const { started, submit, finish } = queue();
    const flood = Array.from({ length: 6 }, () => settled(submit('flooded@example.com')));
    expect(started).toHaveLength(2);
    const colleague = submit('colleague@example.com');
    await finish();
    // The flooded account's next request started first (it was waiting); then comes the colleague's turn.
    expect(started.map((h) => h.lane)).toEqual(['flooded@example.com', 'flooded@example.com']);
    await finish();
    expect(started.map((h) => h.lane)).toContain('colleague@example.com');
    await finish('colleague@example.com');
    expect(await colleague).toBe('colleague@example.com');
    while (started.length) await finish();
    expect((await Promise.all(flood)).every((r) => 'value' in r)).toBe(true);
  });

  it('a known device goes ahead of every account’s turn', async () => {
    const { started, submit, finish } = queue();
    for (let i = 0; i < 4; i++) void settled(submit(`guess${i}@example.com`));
    const owner = submit('owner@example.com', { priority: true });
    await finish();
    expect(started.map((h) => h.lane)).toContain('owner@example.com');
    await finish('owner@example.com');
    expect(await owner).toBe('owner@example.com');
    while (started.length) await finish();
  });

  it('refuses at once (429 with Retry-After) a request whose turn would come after maxWaitMs, and counts it', async () => {
    const { work, started, submit, finish } = queue();
    // 400 ms a hash, two at a time, 3 s of patience: one account gets 2 running + 15 waiting.
    const admitted = Array.from({ length: 17 }, () => settled(submit('flooded@example.com')));
    const refused = await settled(submit('flooded@example.com'));
    expect('error' in refused && refused.error).toBeInstanceOf(AppError);
    const error = (refused as { error: AppError }).error;
    expect([error.statusCode, error.code, error.message]).toEqual([429, ErrorCode.RATE_LIMITED, PasswordWorkMessage.busy]);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(work.counts.refused).toBe(1);
    // Another account still gets a turn soon, so it is admitted.
    const colleague = submit('colleague@example.com');
    while (started.length) await finish();
    expect(await colleague).toBe('colleague@example.com');
    expect((await Promise.all(admitted)).every((r) => 'value' in r)).toBe(true);
  });

  it('drops a request whose client hung up before its hash started: nothing is hashed for it', async () => {
    const { work, started, submit, finish } = queue();
    void submit('a');
    void submit('b');
    const client = new AbortController();
    const gone = settled(submit('c', { signal: client.signal }));
    client.abort();
    expect(await gone).toEqual({ error: expect.any(ClientGoneError) });
    await finish();
    await finish();
    expect(started).toHaveLength(0);
    expect(work.counts).toMatchObject({ hashed: 2, abandoned: 1 });
    expect(await settled(submit('d', { signal: AbortSignal.abort() }))).toEqual({ error: expect.any(ClientGoneError) });
  });

  it('refuses a request still waiting after maxWaitMs (the estimate was wrong): nobody waits past their patience', async () => {
    jest.useFakeTimers();
    try {
      const { work, started, submit } = queue({ maxWaitMs: 1_000 });
      work.hashMs = 1;
      void submit('a');
      void submit('b');
      const late = settled(submit('c'));
      jest.advanceTimersByTime(1_000);
      expect(await late).toEqual({ error: expect.objectContaining({ statusCode: 429, message: PasswordWorkMessage.busy }) });
      expect(started.map((h) => h.lane)).toEqual(['a', 'b']);
      expect(work.waiting).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('imitates a check for an unknown email without a hashing slot, and refuses it exactly when a real one would be', async () => {
    const { work, started, submit, finish } = queue({ maxWaitMs: 3_000 });
    work.hashMs = 400;
    const imitations = Array.from({ length: 17 }, () => settled(work.imitate('nobody@example.com')));
    // They took no slot: real hashes of other accounts start at once.
    const real = [submit('a'), submit('b')];
    expect(started.map((h) => h.lane)).toEqual(['a', 'b']);
    // The made-up account's turn is as full as a real account's with 17 requests: the 18th is refused, as a real one was above.
    const refused = await settled(work.imitate('nobody@example.com'));
    expect(refused).toEqual({ error: expect.objectContaining({ statusCode: 429, message: PasswordWorkMessage.busy }) });
    await finish();
    await finish();
    await Promise.all(real);
    expect((await Promise.all(imitations)).every((r) => 'value' in r)).toBe(true);
    expect(work.counts).toEqual({ hashed: 2, imitated: 17, refused: 1, abandoned: 0 });
  });
});
