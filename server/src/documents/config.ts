import path from 'node:path';
import { flag } from '../base/env';

/** Where the documents' files are kept (issue 40): a folder (default) or an S3-compatible bucket. */
export type DocumentsConfig =
  | { store: 'fs'; /** DOCUMENTS_DIR, default `DATA_DIR/documents`. */ dir: string }
  | {
      store: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible server's URL (MinIO, R2, a local one); unset: AWS's own. */
      endpoint: string | undefined;
      /** Unset: the SDK's own chain (AWS_ACCESS_KEY_ID…, an instance role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      /** `https://host/bucket/key` rather than `https://bucket.host/key` (most S3-compatible servers want it). */
      forcePathStyle: boolean;
    };

export function loadDocumentsConfig(env: NodeJS.ProcessEnv, dataDir: string): DocumentsConfig {
  const store = (env.DOCUMENTS_STORE || 'fs').trim();
  if (store === 'fs') return { store, dir: path.resolve(env.DOCUMENTS_DIR || path.join(dataDir, 'documents')) };
  if (store !== 's3') throw new Error(`DOCUMENTS_STORE must be fs or s3, got "${store}"`);
  const bucket = env.DOCUMENTS_S3_BUCKET?.trim();
  if (!bucket) throw new Error('DOCUMENTS_STORE=s3 needs DOCUMENTS_S3_BUCKET');
  const keyId = env.DOCUMENTS_S3_ACCESS_KEY_ID;
  const secret = env.DOCUMENTS_S3_SECRET_ACCESS_KEY;
  if (!keyId !== !secret) throw new Error('DOCUMENTS_S3_ACCESS_KEY_ID and DOCUMENTS_S3_SECRET_ACCESS_KEY go together');
  return {
    store,
    bucket,
    region: env.DOCUMENTS_S3_REGION || 'us-east-1',
    endpoint: env.DOCUMENTS_S3_ENDPOINT || undefined,
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
    forcePathStyle: flag(env.DOCUMENTS_S3_FORCE_PATH_STYLE, Boolean(env.DOCUMENTS_S3_ENDPOINT)),
  };
}
