import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DocumentStore } from './index';

/** Keys are ours (random hex); anything else is refused so a key can never name a path outside the folder. */
const KEY = /^[a-f0-9]{32,64}$/;
const checked = (key: string) => {
  if (!KEY.test(key)) throw new Error('Not a document key');
  return key;
};

/** A folder (DATA_DIR/documents by default): one file per key, in 256 sub-folders by the key's first two characters. */
export function filesystemStore(dir: string): DocumentStore {
  const fileOf = (key: string) => path.join(dir, checked(key).slice(0, 2), key);
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written aside, then renamed: a reader never sees half a file.
      const aside = `${file}.${randomBytes(6).toString('hex')}.part`;
      await fs.writeFile(aside, bytes, { mode: 0o600 });
      await fs.rename(aside, file);
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
