import type { DocumentsConfig } from '../config';
import type { DocumentStore } from './index';

/** The AWS SDK is loaded on the first call, not at start: a process on the folder store never loads it. */
const sdk = () => import('@aws-sdk/client-s3');

/** Any S3-compatible bucket, through the maintained AWS SDK client. */
export function s3Store(config: Extract<DocumentsConfig, { store: 's3' }>): DocumentStore {
  const Bucket = config.bucket;
  let client: Promise<import('@aws-sdk/client-s3').S3Client> | undefined;
  const connected = () =>
    (client ??= sdk().then(
      ({ S3Client }) =>
        new S3Client({
          region: config.region,
          endpoint: config.endpoint,
          forcePathStyle: config.forcePathStyle,
          credentials: config.credentials,
          // S3-compatible servers (MinIO, R2, s3rver) do not all know the SDK's newer default CRC32 checksums.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
    ));
  return {
    async put(key, bytes, contentType) {
      const { PutObjectCommand } = await sdk();
      await (await connected()).send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
    },
    async get(key) {
      const { GetObjectCommand } = await sdk();
      try {
        const answer = await (await connected()).send(new GetObjectCommand({ Bucket, Key: key }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async delete(key) {
      const { DeleteObjectCommand } = await sdk();
      await (await connected()).send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
