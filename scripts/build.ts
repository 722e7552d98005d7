// Production builds of the bundles named on the command line (default: all three), pre-compressed for serving.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { analysisFile, bundleNames, distDir, repoRoot } from './bundles';
import type { BundleName } from './rspack-common';

const compressible = /\.(js|mjs|css|html|json|svg|txt|map)$/;

/** Writes `.br` and `.gz` beside each text asset so the server sends them without compressing per request. */
export function precompress(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (!compressible.test(entry.name)) continue;
    const body = fs.readFileSync(file);
    if (body.length < 256) continue;
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
  }
}

// Which packages each emitted file carries: the singleton check proves none is loaded from two bundles.
const packageOf = (moduleName: string): string | undefined => {
  const normalized = moduleName.replace(/\\/g, '/');
  if (normalized.endsWith('scripts/federation/react-router-dom.ts')) return 'react-router-dom';
  const nodeModules = normalized.lastIndexOf('node_modules/');
  if (nodeModules >= 0) {
    const rest = normalized.slice(nodeModules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  // The contract (constants, messages, zod schemas) is stateless: a bundle may carry its own copy of what it uses.
  if (/(?:^|\/)shared-api\/src\/contract\//.test(normalized)) return 'shared-api/contract';
  // The product's languages (shared-ui/languages, which the contract re-exports): constants, the same in every copy.
  if (/(?:^|\/)shared-ui\/src\/i18n\/languages\.ts$/.test(normalized)) return 'shared-ui/languages';
  // shared-ui/forms, shared-ui/data and shared-ui/text are carried by each bundle that uses them, on top of the shared core.
  const sharedUiEntry = /(?:^|\/)shared-ui\/src\/(forms|data|text)\//.exec(normalized);
  if (sharedUiEntry) return `shared-ui/${sharedUiEntry[1]}`;
  const workspace = /(?:^|\/)(shared-ui|shared-api|shell|booking-remote|admin-remote)\/src\//.exec(normalized);
  return workspace?.[1];
};

type StatsModule = { nameForCondition?: string; size?: number; modules?: StatsModule[] };
type StatsJson = {
  children?: StatsJson[];
  time?: number;
  errors?: { message: string }[];
  warnings?: { message: string }[];
  chunks?: { files?: string[]; modules?: StatsModule[] }[];
};

/** Per emitted JS file: the packages it carries and their source bytes (before minification). */
export type BundleAnalysis = Record<string, Record<string, number>>;

export function analyse(stats: StatsJson): BundleAnalysis {
  const files: BundleAnalysis = {};
  for (const chunk of stats.chunks ?? []) {
    const packages: Record<string, number> = {};
    const visit = (modules: StatsModule[] | undefined) => {
      for (const module of modules ?? []) {
        const pkg = module.nameForCondition ? packageOf(module.nameForCondition) : undefined;
        // Concatenated modules list their parts as children: count leaves only.
        if (pkg && !module.modules?.length) packages[pkg] = (packages[pkg] ?? 0) + (module.size ?? 0);
        visit(module.modules);
      }
    };
    visit(chunk.modules);
    for (const file of chunk.files ?? []) {
      if (!file.endsWith('.js')) continue;
      const merged = (files[file] ??= {});
      for (const [pkg, bytes] of Object.entries(packages)) merged[pkg] = (merged[pkg] ?? 0) + bytes;
    }
  }
  return files;
}

/**
 * The shell's entry only does `import('./bootstrap')` (the federation share scope must be set up first), so its
 * bootstrap chunk would be requested only after main.js has run: a preload hint in the HTML fetches it alongside.
 */
export function preloadShellBootstrap(stats: StatsJson, dir: string): string[] {
  const carriesBootstrap = (modules: StatsModule[] | undefined): boolean =>
    (modules ?? []).some((m) => /(?:^|[\\/])shell[\\/]src[\\/]bootstrap\.tsx$/.test(m.nameForCondition ?? '') || carriesBootstrap(m.modules));
  const files = (stats.chunks ?? [])
    .filter((chunk) => carriesBootstrap(chunk.modules))
    .flatMap((chunk) => chunk.files ?? [])
    .filter((file) => file.endsWith('.js') && !file.startsWith('main.'));
  const html = path.join(dir, 'index.html');
  if (!files.length || !fs.existsSync(html)) return [];
  const tags = files.map((file) => `<link rel="preload" href="/${file}" as="script">`).join('');
  fs.writeFileSync(html, fs.readFileSync(html, 'utf8').replace('</head>', `${tags}</head>`));
  return files;
}

function writeAnalysis(name: BundleName, stats: StatsJson): void {
  fs.writeFileSync(analysisFile(name), JSON.stringify(analyse(stats), null, 2));
}

const configFile: Record<BundleName, string> = {
  shell: 'rspack.shell.config.ts',
  'booking-remote': 'rspack.booking.config.ts',
  'admin-remote': 'rspack.admin.config.ts',
};

/**
 * Each bundle is built by the rspack CLI in its own plain Node process: under tsx's require hook the federation
 * runtime that rspack stringifies into the bundle gains `__name(...)` helpers that do not exist in the browser.
 */
export type BuildOneOptions = { outputDir?: string; statsFile?: string; env?: NodeJS.ProcessEnv };

export function buildOne(name: BundleName, options: BuildOneOptions = {}): Promise<StatsJson> {
  const statsFile = options.statsFile ?? path.join(path.dirname(analysisFile(name)), `${name}.stats.json`);
  fs.mkdirSync(path.dirname(statsFile), { recursive: true });
  const outputArgs = options.outputDir ? ['-o', options.outputDir] : [];
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(
      process.execPath,
      [cliBin, 'build', '-c', configFile[name], '--mode', 'production', '--json', statsFile, ...outputArgs],
      {
        cwd: repoRoot,
        env: { ...process.env, ...options.env, BUNDLE_ANALYSIS: '1', NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      let stats: StatsJson = {};
      try {
        stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as StatsJson;
      } catch {
        // no stats: the CLI failed before compiling
      }
      // A remote's production config is two builds (the bundle and its runtime provider): merge their stats.
      if (stats.children?.length) {
        const children = stats.children;
        stats = {
          time: Math.max(...children.map((c) => c.time ?? 0)),
          errors: children.flatMap((c) => c.errors ?? []),
          warnings: children.flatMap((c) => c.warnings ?? []),
          chunks: children.flatMap((c) => c.chunks ?? []),
        };
      }
      // An import of a name a module does not export is undefined at run time: a build error here.
      const missingExports = (stats.warnings ?? []).filter((w) => /was not found in/.test(w.message));
      if (code !== 0 || stats.errors?.length || missingExports.length) {
        const errors = [...(stats.errors ?? []), ...missingExports].map((e) => e.message).join('\n\n');
        return reject(new Error(`${name} failed to build:\n${errors || output}`));
      }
      resolve(stats);
    });
  });
}

const cliBin = path.join(repoRoot, 'node_modules', '@rspack', 'cli', 'bin', 'rspack.js');

export async function build(names: BundleName[]): Promise<void> {
  const results = await Promise.allSettled(names.map((name) => buildOne(name)));
  const failures: string[] = [];
  results.forEach((result, index) => {
    const name = names[index];
    if (result.status === 'rejected') {
      failures.push(result.reason instanceof Error ? result.reason.message : String(result.reason));
      return;
    }
    writeAnalysis(name, result.value);
    if (name === 'shell') preloadShellBootstrap(result.value, distDir(name));
    precompress(distDir(name));
    console.log(`built ${name} → dist/${name} (${result.value.time ?? '?'} ms)`);
  });
  if (failures.length) throw new Error(failures.join('\n\n'));
}

if (require.main === module) {
  const requested = process.argv.slice(2) as BundleName[];
  const unknown = requested.filter((name) => !bundleNames.includes(name));
  if (unknown.length) {
    console.error(`Unknown bundle(s): ${unknown.join(', ')}. Known: ${bundleNames.join(', ')}`);
    process.exit(2);
  }
  build(requested.length ? requested : bundleNames).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
