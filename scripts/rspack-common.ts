// One config factory for the three deployable bundles (shell, booking-remote, admin-remote).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { rspack, type Compiler, type Configuration, type RuleSetRule } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { CONTRACT_FILE, CONTRACT_PACKAGES, type Contract } from '../shell/server/contract';

// CommonJS under tsx and Jest: __dirname is the scripts folder.
export const repoRoot = path.resolve(__dirname, '..');
const requireFromRoot = createRequire(path.join(repoRoot, 'package.json'));

export type BundleName = 'shell' | 'booking-remote' | 'admin-remote';
export type Mode = 'production' | 'development';

/** Federation container names (used in `remotes.json` keys and `loadRemote('<name>/routes')`). */
export const containerNames: Record<BundleName, string> = {
  shell: 'shell',
  'booking-remote': 'booking',
  'admin-remote': 'admin',
};

export const defaultPorts: Record<BundleName, number> = { shell: 3000, 'booking-remote': 3001, 'admin-remote': 3002 };

/**
 * The singletons of the design, shared under these keys. Subpath entries are listed one by one because sharing a
 * package does not share its subpaths. A copy of any of these per remote would split the theme, the store or the
 * router. @reduxjs/toolkit and styled-components are singletons too, but reached only through shared-api and
 * shared-ui (remotes import RTK's types only, and styled-components only through shared-ui's re-exports): a shared
 * package is never tree-shaken, so sharing them separately would ship all of both on the first load. The e2e
 * singleton check fails if either is ever loaded from two bundles (a remote importing one directly).
 */
export const singletonPackages = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-router-dom',
  'react-redux',
  'shared-ui',
  'shared-api',
] as const;

/** The router every bundle shares under the key `react-router-dom` (see the file for why it is a subset). */
export const sharedRouterModule = path.join(repoRoot, 'scripts', 'federation', 'react-router-dom.ts');
const routerVersion = (requireFromRoot('react-router-dom/package.json') as { version: string }).version;
/** react-redux as every bundle shares it: the hooks and Provider (see the file). */
export const sharedReduxBindingsModule = path.join(repoRoot, 'scripts', 'federation', 'react-redux.ts');
const reactReduxVersion = (requireFromRoot('react-redux/package.json') as { version: string }).version;

const sharedConfig = (mode: Mode, eager: boolean) => {
  const names: string[] = [...singletonPackages];
  // swc emits jsxDEV calls in development builds.
  if (mode === 'development') names.push('react/jsx-dev-runtime');
  const shared: Record<string, Record<string, unknown>> = Object.fromEntries(
    names.map((name) => [name, { singleton: true, requiredVersion: false, eager }]),
  );
  shared['react-router-dom'] = { ...shared['react-router-dom'], import: sharedRouterModule, version: routerVersion };
  shared['react-redux'] = { ...shared['react-redux'], import: sharedReduxBindingsModule, version: reactReduxVersion };
  return shared;
};

/**
 * The federation runtime packages resolve to their CommonJS builds by default; the ESM builds let the bundler
 * drop the Node-only code and unused exports (about a third of the runtime).
 */
const federationRuntimeEsm = (): Record<string, string> => {
  const esm: Record<string, string> = {
    '@module-federation/runtime': 'dist/index.js',
    '@module-federation/runtime-core': 'dist/index.js',
    '@module-federation/sdk': 'dist/index.js',
    '@module-federation/webpack-bundler-runtime': 'dist/index.js',
    '@module-federation/runtime-tools': 'dist/index.js',
    '@module-federation/error-codes': 'dist/index.mjs',
  };
  return Object.fromEntries(
    Object.entries(esm).flatMap(([pkg, file]) => {
      // Their exports hide package.json: go from the CommonJS main (dist/index.cjs) to the package folder.
      const commonJs = requireFromRoot.resolve(pkg);
      const module = path.join(path.dirname(commonJs), '..', file);
      // The federation plugin itself injects some of them by their resolved CommonJS path: map that too.
      return [
        [`${pkg}$`, module],
        [commonJs, module],
      ];
    }),
  );
};

const swcRule = (mode: Mode): RuleSetRule => ({
  test: /\.[cm]?[jt]sx?$/,
  // Workspace packages (shared-ui, shared-api) resolve through their symlinks to real paths outside node_modules.
  exclude: /node_modules/,
  loader: 'builtin:swc-loader',
  options: {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic', development: mode === 'development' } },
      target: 'es2020',
    },
  },
  type: 'javascript/auto',
});

/**
 * The federation runtime core's snapshot handler and asset preloader, swapped for scripts/federation/runtime-stubs.ts
 * (see the file). Matched by the request as core.js and helpers.js / remote/index.js write it, so remote/index.js's own
 * `../plugins/snapshot/SnapshotHandler.js` (getGlobalRemoteInfo) keeps the real file.
 */
const federationRuntimeStubs = () =>
  new rspack.NormalModuleReplacementPlugin(
    /^(?:\.\/plugins\/snapshot\/SnapshotHandler|\.\.?\/utils\/preload)\.js$/,
    path.join(repoRoot, 'scripts', 'federation', 'runtime-stubs.ts'),
  );

/** react-router 7's package entry points at its development build; production builds take the production files. */
const productionAliases = (): Record<string, string> => {
  const routerDir = path.dirname(requireFromRoot.resolve('react-router/package.json'));
  return {
    'react-router$': path.join(routerDir, 'dist/production/index.mjs'),
    'react-router/dom$': path.join(routerDir, 'dist/production/dom-export.mjs'),
    // The federation runtime's error codes without their descriptions (see the file).
    '@module-federation/error-codes$': path.join(repoRoot, 'scripts', 'federation', 'error-codes.ts'),
  };
};

export type BundleOptions = {
  name: BundleName;
  mode: Mode;
  exposes?: Record<string, string>;
  /** Remotes do not load remotes: drop that part of the federation runtime from their build. */
  isRemote: boolean;
  htmlTitle: string;
  /** Extra files copied from `<package>/public` besides index.html. */
  copyPublic?: boolean;
  port: number;
  /** Dev server only: answer /remotes.json from the dev ports of the environment. */
  serveDevRemotesJson?: boolean;
};

/**
 * V8's explicit compile hint: every function of a file marked so is compiled on a background thread while the file
 * downloads, instead of on the main thread at its first call (which was over half of the page's start-up CPU).
 * Added after minification, which would drop it as a comment. Our chunks are only fetched when their code runs.
 */
const compileHintBanner = (isProd: boolean) =>
  isProd
    ? [
        new rspack.BannerPlugin({
          banner: '//# allFunctionsCalledOnLoad',
          raw: true,
          test: /\.js$/,
          stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT,
        }),
      ]
    : [];

const installedVersion = (pkg: string): string =>
  (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Writes `contract.json` beside the build (docs/ARCHITECTURE.md, "Releases and the shell contract"): the shell states
 * the contract version it implements (its package.json `shellContract`) and the singletons' versions it provides; a
 * remote the contract range it was written for (its package.json `shellContract`) and, for each singleton, `^` the
 * version it was built and tested against. Not part of any chunk: the page never loads it.
 */
const contractPlugin = (name: BundleName, isRemote: boolean) => ({
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('ContractPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'ContractPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const own = JSON.parse(fs.readFileSync(path.join(repoRoot, name, 'package.json'), 'utf8')) as { shellContract?: string };
        if (!own.shellContract) throw new Error(`${name}/package.json states no "shellContract"`);
        const shared = Object.fromEntries(CONTRACT_PACKAGES.map((pkg) => [pkg, `${isRemote ? '^' : ''}${installedVersion(pkg)}`]));
        const contract: Contract = { bundle: name, shellContract: own.shellContract, shared };
        compilation.emitAsset(CONTRACT_FILE, new rspack.sources.RawSource(`${JSON.stringify(contract, null, 2)}\n`));
      });
    });
  },
});

/** The file beside a build that names each preloadable chunk group's scripts (shell/server/hints.ts reads it). */
export const PRELOAD_GROUPS_FILE = 'preload-groups.json';

/**
 * Writes PRELOAD_GROUPS_FILE: for each chunk group a page may want before its code asks (a named lazy chunk such as
 * admin-remote's `secured-area`, and an exposed module's group), every script it needs, split chunks included (the
 * federation manifest lists an expose's own files but not all it loads). Not part of any chunk.
 */
const preloadGroupsPlugin = () => ({
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('PreloadGroupsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PreloadGroupsPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const groups: Record<string, string[]> = {};
        for (const [name, group] of compilation.namedChunkGroups) {
          if (!/^(secured-area|__federation_expose_\w+)$/.test(name)) continue;
          groups[name] = [...new Set(group.chunks.flatMap((chunk) => [...chunk.files]))].filter((file) => file.endsWith('.js')).sort();
        }
        compilation.emitAsset(PRELOAD_GROUPS_FILE, new rspack.sources.RawSource(`${JSON.stringify(groups, null, 2)}\n`));
      });
    });
  },
});

/** File name of the runtime-core provider beside a remote's production build (see provide-runtime-core.ts). */
export const runtimeProviderFile = 'federation-runtime.js';

/**
 * Production remotes take the federation runtime core from the page (`experiments.externalRuntime`): inside the
 * shell that is the shell's copy, on the remote's own standalone page it is this small separate build.
 */
const usesExternalRuntime = (isRemote: boolean, mode: Mode) => isRemote && mode === 'production';

/** What the shell's dev server answers for /remotes.json (ports overridable like `npm start`). */
const devRemotesJson = () =>
  JSON.stringify({
    booking: `http://localhost:${Number(process.env.BOOKING_PORT) || defaultPorts['booking-remote']}/remoteEntry.js`,
    admin: `http://localhost:${Number(process.env.ADMIN_PORT) || defaultPorts['admin-remote']}/remoteEntry.js`,
    api: process.env.API_BASE_URL || `http://localhost:${Number(process.env.PORT) || 4000}`,
  });

export function createBundleConfig(options: BundleOptions): Configuration {
  const { name, mode, exposes, isRemote, htmlTitle, port } = options;
  const isProd = mode === 'production';
  const packageDir = path.join(repoRoot, name);
  const apiBaseUrl = process.env.API_BASE_URL || 'http://localhost:4000';

  return {
    name,
    mode,
    context: packageDir,
    entry: { main: './src/index.ts' },
    target: ['web', 'es2020'],
    devtool: process.env.BUNDLE_SOURCEMAP === '1' ? 'source-map' : isProd ? false : 'cheap-module-source-map',
    output: {
      path: path.join(repoRoot, 'dist', name),
      publicPath: 'auto',
      uniqueName: containerNames[name],
      filename: isProd ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: isProd ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: isProd ? 'assets/[name].[contenthash:10][ext]' : 'assets/[name][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.jsx', '.json'],
      alias: { ...federationRuntimeEsm(), ...(isProd ? productionAliases() : {}) },
    },
    module: {
      rules: [
        swcRule(mode),
        { test: /\.(png|svg|jpe?g|gif|webp|ico)$/, type: 'asset' },
        // Message catalogues (`locales/<language>.json`): compiled by messageformat to a function per message at build time.
        {
          test: /[\\/]locales[\\/][^\\/]+\.json$/,
          type: 'javascript/auto',
          use: [{ loader: path.join(repoRoot, 'scripts', 'i18n', 'catalog-loader.cjs') }],
        },
      ],
    },
    optimization: {
      minimize: isProd,
      // bench/bundle.ts only: one chunk per package, to measure what each costs (never deployed).
      ...(process.env.BUNDLE_SPLIT_PACKAGES === '1'
        ? {
            splitChunks: {
              chunks: 'all' as const,
              minSize: 0,
              cacheGroups: {
                perPackage: {
                  test: /[\\/](node_modules|shared-ui|shared-api)[\\/]/,
                  name: (module: { nameForCondition?: () => string | null }) => {
                    const resource = (module.nameForCondition?.() ?? '').replace(/\\/g, '/');
                    const inModules = resource.split('node_modules/').pop() ?? '';
                    const workspace = /\/(shared-ui|shared-api)\/src\//.exec(resource)?.[1];
                    const parts = inModules.split('/');
                    const pkg = workspace ?? (parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
                    return `pkg-${pkg.replace(/[@/]/g, '_')}`;
                  },
                  priority: 10,
                  reuseExistingChunk: false,
                  enforce: true,
                },
              },
            },
          }
        : {}),
    },
    performance: { hints: false },
    // scripts/build.ts asks for the chunk → module listing (singleton check, bundle report) in its stats JSON.
    ...(process.env.BUNDLE_ANALYSIS === '1'
      ? {
          stats: {
            all: false,
            errors: true,
            warnings: true,
            timings: true,
            chunks: true,
            chunkModules: true,
            nestedModules: true,
            dependentModules: true,
            orphanModules: true,
            chunkModulesSpace: Infinity,
            nestedModulesSpace: Infinity,
            ids: true,
          },
        }
      : {}),
    plugins: [
      new rspack.DefinePlugin({ 'process.env.API_BASE_URL': JSON.stringify(apiBaseUrl) }),
      new rspack.HtmlRspackPlugin({
        template: path.join(packageDir, 'public/index.html'),
        title: htmlTitle,
        chunks: ['main'],
        minify: isProd,
        // Absolute: a deep link such as /secured/dashboard must still load /main.<hash>.js, not /secured/main...
        publicPath: '/',
        templateParameters: {
          runtimeScript: usesExternalRuntime(isRemote, mode) ? `<script src="/${runtimeProviderFile}"></script>` : '',
        },
      }),
      ...(options.copyPublic
        ? [
            new rspack.CopyRspackPlugin({
              patterns: [{ from: path.join(packageDir, 'public'), globOptions: { ignore: ['**/index.html'] } }],
            }),
          ]
        : []),
      ...compileHintBanner(isProd),
      federationRuntimeStubs(),
      contractPlugin(name, isRemote),
      preloadGroupsPlugin(),
      new ModuleFederationPlugin({
        name: containerNames[name],
        filename: 'remoteEntry.js',
        exposes,
        remotes: {},
        // The shell's shared modules are eager (in its main chunk: one request instead of ~15); remotes' are
        // fallbacks fetched only when they run standalone.
        shared: sharedConfig(mode, !isRemote && process.env.BUNDLE_SPLIT_PACKAGES !== '1'),
        shareStrategy: 'loaded-first',
        manifest: true,
        dts: false,
        dev: false,
        // Remotes load no remotes: their runtime needs no remote loading. No bundle needs the manifest snapshot code:
        // the shell addresses remotes by their remoteEntry.js (remotes.json), which saves a request and ~1.4 KB gzip.
        experiments: {
          optimization: { target: 'web', disableRemote: isRemote, disableSnapshot: true },
          externalRuntime: usesExternalRuntime(isRemote, mode),
          provideExternalRuntime: !isRemote && mode === 'production',
        },
      }),
    ],
    devServer: {
      port,
      hot: false,
      liveReload: true,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { errors: true, warnings: false } },
      devMiddleware: { writeToDisk: false },
      ...(options.serveDevRemotesJson
        ? {
            setupMiddlewares: (middlewares: unknown[]) => [
              {
                name: 'dev-remotes-json',
                path: '/remotes.json',
                middleware: (_req: unknown, res: { setHeader: (k: string, v: string) => void; end: (body: string) => void }) => {
                  res.setHeader('Content-Type', 'application/json; charset=utf-8');
                  res.setHeader('Cache-Control', 'no-cache');
                  res.end(devRemotesJson());
                },
              },
              ...middlewares,
            ],
          }
        : {}),
    },
    lazyCompilation: false,
    experiments: {},
  } as Configuration;
}

export function modeFromArgv(argv: { mode?: string } | undefined): Mode {
  const raw = argv?.mode ?? process.env.NODE_ENV;
  return raw === 'development' ? 'development' : 'production';
}

/** The standalone page's runtime-core provider of a remote (production only; no federation plugin here). */
export function createRuntimeProviderConfig(name: BundleName): Configuration {
  return {
    name: `${name}-runtime`,
    // After the federated build, whose output.clean would otherwise delete this file.
    dependencies: [name],
    mode: 'production',
    context: repoRoot,
    entry: { runtime: path.join(repoRoot, 'scripts', 'federation', 'provide-runtime-core.ts') },
    target: ['web', 'es2020'],
    devtool: false,
    output: { path: path.join(repoRoot, 'dist', name), filename: runtimeProviderFile, clean: false },
    resolve: { extensions: ['.ts', '.mjs', '.js', '.json'], alias: federationRuntimeEsm() },
    module: { rules: [swcRule('production')] },
    // Lets the minifier drop the runtime's Node-only branches (the federation plugin defines it for its builds).
    plugins: [new rspack.DefinePlugin({ ENV_TARGET: JSON.stringify('web') }), federationRuntimeStubs()],
    performance: { hints: false },
  } as Configuration;
}

/** Where a remote's server render entry is written, inside its build folder (and so served beside its code). */
export const serverRenderFile = 'server/render.js';

/**
 * A remote's server render entry (production only): one CommonJS file for Node carrying its own React, with every
 * dynamic import (the languages' words) inlined, so the shell's server can load it from the remote's address.
 */
export function createServerRenderConfig(name: BundleName, entry: string): Configuration {
  const packageDir = path.join(repoRoot, name);
  return {
    name: `${name}-server`,
    dependencies: [name],
    mode: 'production',
    context: packageDir,
    entry: { render: entry },
    target: ['node20'],
    devtool: false,
    output: {
      path: path.join(repoRoot, 'dist', name),
      filename: serverRenderFile,
      library: { type: 'commonjs2' },
      clean: false,
    },
    resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.jsx', '.json'], alias: productionAliases() },
    module: {
      rules: [
        swcRule('production'),
        { test: /\.(png|svg|jpe?g|gif|webp|ico)$/, type: 'asset/inline' },
        {
          test: /[\\/]locales[\\/][^\\/]+\.json$/,
          type: 'javascript/auto',
          use: [{ loader: path.join(repoRoot, 'scripts', 'i18n', 'catalog-loader.cjs') }],
        },
      ],
    },
    optimization: { minimize: true },
    plugins: [
      new rspack.DefinePlugin({ 'process.env.API_BASE_URL': JSON.stringify(process.env.API_BASE_URL || 'http://localhost:4000') }),
      new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    performance: { hints: false },
  } as Configuration;
}
