import { randomBytes } from 'node:crypto';
import { createDocumentStore, type DocumentStore, type DocumentsConfig } from '../../src/documents';
import { startS3Server, tempFolderStore } from './s3-server';

// One suite, two stores: the folder (npm start, tests) and a real S3-compatible server (s3rver), never a mocked client.
jest.setTimeout(30_000);

const stores: [string, () => Promise<{ config: DocumentsConfig; stop: () => Promise<void> }>][] = [
  ['the folder store', tempFolderStore],
  ['the S3 store (s3rver)', startS3Server],
];

describe.each(stores)('%s', (_name, start) => {
  let store: DocumentStore;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    const started = await start();
    stop = started.stop;
    store = createDocumentStore(started.config);
  });
  afterAll(() => stop());

  const key = () => randomBytes(16).toString('hex');

  it('gives back the bytes it was given, exactly', async () => {
    const k = key();
    const bytes = randomBytes(300_000);
    await store.put(k, bytes, 'application/pdf');
    expect((await store.get(k))?.equals(bytes)).toBe(true);
  });

  it('replaces an object put again under the same key', async () => {
    const k = key();
    await store.put(k, Buffer.from('first'), 'image/png');
    await store.put(k, Buffer.from('second'), 'image/png');
    expect((await store.get(k))?.toString()).toBe('second');
  });

  it('answers undefined for a key it does not have, and after a delete', async () => {
    const k = key();
    expect(await store.get(k)).toBeUndefined();
    await store.put(k, Buffer.from('x'), 'image/jpeg');
    await store.delete(k);
    expect(await store.get(k)).toBeUndefined();
  });

  it('takes a second delete of the same key as done (a retried delete)', async () => {
    const k = key();
    await store.put(k, Buffer.from('x'), 'image/jpeg');
    await store.delete(k);
    await expect(store.delete(k)).resolves.toBeUndefined();
  });
});

describe('the folder store', () => {
  it('refuses a key that is not one of ours (no path outside its folder)', async () => {
    const { config, stop } = await tempFolderStore();
    try {
      const store = createDocumentStore(config);
      await expect(store.put('../../etc/passwd', Buffer.from('x'), 'image/png')).rejects.toThrow('Not a document key');
      await expect(store.get('..')).rejects.toThrow('Not a document key');
    } finally {
      await stop();
    }
  });
});
