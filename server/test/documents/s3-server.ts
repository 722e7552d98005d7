import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { DocumentsConfig } from '../../src/documents';

/** A real S3-compatible server (s3rver) on a free port, its files under os.tmpdir(), with one bucket. */
export async function startS3Server(bucket = 'documents'): Promise<{ config: Extract<DocumentsConfig, { store: 's3' }>; directory: string; stop: () => Promise<void> }> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'booking-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = await server.run();
  return {
    config: {
      store: 's3',
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${address.port}`,
      // s3rver's fixed development key pair.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    },
    directory,
    stop: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** A folder store's settings under os.tmpdir(), and its removal. */
export async function tempFolderStore(): Promise<{ config: Extract<DocumentsConfig, { store: 'fs' }>; stop: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'booking-documents-'));
  return { config: { store: 'fs', dir }, stop: () => fs.rm(dir, { recursive: true, force: true }) };
}
