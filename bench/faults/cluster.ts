// A throwaway PostgreSQL cluster of its own (initdb in a temporary folder, its own port) for runs that stop the
// database: the shared server at 127.0.0.1:5432 runs other people's tests and is never stopped.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, freePort } from '../../scripts/stack-scale';

export type Cluster = {
  /** postgres://postgres@127.0.0.1:<port>/booking */
  url: string;
  port: number;
  /** Stops the server at once (pg_ctl -m immediate: every connection cut, as a crashed or failed-over primary). */
  stop: () => void;
  start: () => void;
  /** Stops it and removes its folder. */
  remove: () => void;
};

const binaries = (): string => {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb'))) return bin;
  }
  throw new Error('initdb not found under /usr/lib/postgresql: install PostgreSQL (apt-get install postgresql)');
};

/** initdb refuses root: the cluster then belongs to the `postgres` user, its commands run as that user. */
const asOwner = (command: string, args: string[]) => {
  const root = process.getuid?.() === 0;
  const result = root
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args[0]}: ${result.stderr || result.stdout}`);
};

export async function startCluster(): Promise<Cluster> {
  const bin = binaries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-pg-'));
  if (process.getuid?.() === 0) spawnSync('chown', ['postgres:postgres', dir]);
  fs.chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const port = await freePort();
  asOwner(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  // fsync off: a benchmark's cluster, thrown away after; max_connections for 3 API processes' pools and pg-boss.
  const start = () =>
    asOwner(path.join(bin, 'pg_ctl'), [
      'start', '-w', '-D', data, '-l', path.join(dir, 'postgres.log'),
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
    ]);
  const stop = () => asOwner(path.join(bin, 'pg_ctl'), ['stop', '-w', '-D', data, '-m', 'immediate']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/booking`;
  await ensureDatabase(url);
  let removed = false;
  return {
    url,
    port,
    stop,
    start,
    remove: () => {
      if (removed) return;
      removed = true;
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
