// The shell's server on its own: `node --import tsx shell/server/main.ts` (settings in README.md beside this file).
import fs from 'node:fs';
import path from 'node:path';
import { remotesSource } from './remotes';
import { startShellServer } from './shell-server';

const env = process.env;
const root = path.resolve(env.SHELL_DIST || path.join(__dirname, '..', '..', 'dist', 'shell'));
const folder = (value: string | undefined) => (value ? path.resolve(value) : undefined);

async function main() {
  if (!fs.existsSync(path.join(root, 'index.html'))) throw new Error(`no index.html in ${root}: build the shell (npm run build -- shell) or set SHELL_DIST`);
  const remotes = remotesSource(path.resolve(env.REMOTES_FILE || path.join(root, 'remotes.json')), env);
  const server = await startShellServer({
    root,
    releasesDir: folder(env.SHELL_RELEASES_DIR),
    releasesCacheMs: env.RELEASES_CACHE_MS ? Number(env.RELEASES_CACHE_MS) : undefined,
    port: env.PORT === undefined ? 3000 : Number(env.PORT),
    host: env.HOST || undefined,
    remotes,
    remoteFolders: { booking: folder(env.BOOKING_DIST), admin: folder(env.ADMIN_DIST) },
    preloadHints: env.PRELOAD_HINTS !== '0',
    serverRender: env.SERVER_RENDER !== '0',
    renderBudgetMs: env.RENDER_BUDGET_MS ? Number(env.RENDER_BUDGET_MS) : undefined,
    renderCacheMs: env.RENDER_CACHE_MS ? Number(env.RENDER_CACHE_MS) : undefined,
  });
  console.log(`shell: serving ${root} on port ${server.port}; remotes ${JSON.stringify(remotes())}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`shell: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
