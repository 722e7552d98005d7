// `npm run dev`: the three rspack dev servers (reload on change) and the API, until Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './bundles';
import { stopChild, portsFromEnv } from './product';

const ports = portsFromEnv();
const cliBin = path.join(repoRoot, 'node_modules', '@rspack', 'cli', 'bin', 'rspack.js');

type Task = { label: string; command: string[]; env?: NodeJS.ProcessEnv };

// The rspack CLI runs in plain Node (not under tsx): see scripts/build.ts for why.
const tasks: Task[] = [
  { label: 'shell', command: [cliBin, 'serve', '-c', 'rspack.shell.config.ts', '--mode', 'development'] },
  { label: 'booking', command: [cliBin, 'serve', '-c', 'rspack.booking.config.ts', '--mode', 'development'] },
  { label: 'admin', command: [cliBin, 'serve', '-c', 'rspack.admin.config.ts', '--mode', 'development'] },
  {
    label: 'api',
    command: ['--watch-path=server/src', '--watch-path=shared-api/src', '--import', 'tsx', 'server/src/main.ts'],
  },
];

const children: ChildProcess[] = [];
let stopping = false;

async function stopAll(reason: string, exitCode: number) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${reason}: stopping the dev servers and the API...`);
  await Promise.all(children.map((child) => stopChild(child)));
  process.exit(exitCode);
}

for (const task of tasks) {
  const child = spawn(process.execPath, task.command, {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      SHELL_PORT: String(ports.shell),
      BOOKING_PORT: String(ports.booking),
      ADMIN_PORT: String(ports.admin),
      PORT: String(ports.api),
      API_BASE_URL: process.env.API_BASE_URL || `http://localhost:${ports.api}`,
      CORS_ORIGINS: [ports.shell, ports.booking, ports.admin]
        .flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`])
        .join(','),
      ...task.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: Ctrl-C reaches only this script, which stops each child once.
    detached: true,
  });
  children.push(child);
  process.once('exit', () => child.kill('SIGTERM'));
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) console.log(`[${task.label}] ${line}`);
    });
  }
  child.once('exit', (code, signal) => {
    if (!stopping) void stopAll(`${task.label} exited (${code ?? signal})`, 1);
  });
}

process.on('SIGINT', () => void stopAll('SIGINT', 0));
process.on('SIGTERM', () => void stopAll('SIGTERM', 0));

console.log(
  [
    '',
    `  Shell (dev)            http://localhost:${ports.shell}/`,
    `  booking-remote (dev)   http://localhost:${ports.booking}/`,
    `  admin-remote (dev)     http://localhost:${ports.admin}/`,
    `  API (restarts on change) http://localhost:${ports.api}/health`,
    '',
  ].join('\n'),
);
