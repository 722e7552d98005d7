import type { DocumentsConfig } from '../config';
import { filesystemStore } from './filesystem';
import { s3Store } from './s3';

/**
 * Where a document's bytes live, by a random key: a folder or an S3-compatible bucket. The database row (document_files)
 * says whose the file is; the store knows nothing but keys and bytes.
 */
export interface DocumentStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or undefined when no object has that key. */
  get(key: string): Promise<Buffer | undefined>;
  /** Deleting a key that is not there is not an error (a retried delete). */
  delete(key: string): Promise<void>;
}

export const createDocumentStore = (config: DocumentsConfig): DocumentStore => (config.store === 's3' ? s3Store(config) : filesystemStore(config.dir));

export { filesystemStore } from './filesystem';
export { s3Store } from './s3';
