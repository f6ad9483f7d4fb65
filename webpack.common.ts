import path from 'path';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { DefinePlugin, type Configuration, type RuleSetRule } from 'webpack';

const root = __dirname;
/** The `exports` condition under which a workspace package names its TypeScript sources (see shared-contracts/package.json). */
export const SOURCE_CONDITION = '@careloop/source';
/**
 * QA only (e2e/tests/versioned-sharing.spec.ts): build against a patched copy of shared-ui in this folder,
 * as a real shared-ui release would be, to show that a remote ships its own shared-ui.
 */
const SHARED_UI_DIR = process.env.CARELOOP_SHARED_UI_DIR;
const packageDir = (pkg: string): string =>
  pkg === '@careloop/shared-ui' && SHARED_UI_DIR ? SHARED_UI_DIR : path.join(root, 'node_modules', pkg);
const versionOf = (pkg: string): string =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(path.join(packageDir(pkg), 'package.json')).version;

/**
 * One instance of each in the page, whichever app loaded it first (ARCHITECTURE: singletons): they hold
 * module state (React's dispatcher, the router and query contexts, the session store) that all apps share.
 */
export const SINGLETONS = [
  'react',
  'react-dom',
  // the router facade (shared-router/src/index.ts), not react-router itself: only what the apps use ships
  '@careloop/shared-router',
  'zustand',
  'styled-components',
  '@tanstack/react-query',
  '@careloop/shared-auth',
  // shared-ui's fields read the form a remote's view created (useFormContext): one instance.
  'react-hook-form',
];
/**
 * A remote built against a version these do not satisfy must not run on the loaded one (React 18 code on
 * React 19, a shared-auth without the function the remote calls): the load fails and RemoteView explains it.
 */
const STRICT = new Set(['react', 'react-dom', '@careloop/shared-auth']);
/**
 * Libraries without module state that every app builds into its own bundle, never shared: each app
 * keeps only the modules its pages import (their package.json `sideEffects: false`) and evaluates only
 * those, where a shared package is loaded and evaluated whole for whichever page needs one export of it;
 * and one team's release of them can never change another team's pages (docs/federation.md).
 */
export const BUILT_IN = ['@careloop/shared-ui', '@careloop/shared-contracts'];

export const shared = {
  ...Object.fromEntries(
    SINGLETONS.map((pkg) => [
      pkg,
      { singleton: true, requiredVersion: `^${versionOf(pkg)}`, version: versionOf(pkg), strictVersion: STRICT.has(pkg) },
    ]),
  ),
};

const INJECT_RUNTIME_PLUGIN = path.join(root, 'node_modules/@module-federation/inject-external-runtime-core-plugin/dist/index');

/** An app's own package version (its package.json beside its webpack config). */
const appVersion = (dir: string): string =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(path.join(dir, 'package.json')).version;

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** A deployment replaces this file after the build: a stale compressed copy beside it would win. */
const DEPLOY_TIME = /runtime-config\.json$/;

/** How an app's sources load (its TypeScript through its own tsconfig, images, CSS); shell/webpack.prerender.ts too. */
export function sourceRules(dir: string): RuleSetRule[] {
  return [
    {
      test: /\.tsx?$/,
      exclude: /node_modules/,
      loader: 'ts-loader',
      options: { transpileOnly: true, configFile: path.join(dir, 'tsconfig.json') },
    },
    { test: /\.(png|jpe?g|svg|webp)$/, type: 'asset/resource' },
    // A library's stylesheet as text, put in the page by the view that loads it (uPlot's, in
    // shared-ui's lazily loaded chart): no CSS loader needed, and it stays in that chunk.
    { test: /\.css$/, type: 'asset/source' },
  ];
}

export interface AppOptions {
  /** the package folder (pass __dirname) */
  dir: string;
  /** the federation name, a JS identifier: shell, remote_public, … */
  name: string;
  /** the views a remote exposes to the shell */
  exposes?: Record<string, string>;
  title: string;
  /**
   * The federation runtime the page runs on (issue 14: one for the whole page). 'provide': this app puts its
   * runtime-core on the page for the remotes (the shell); 'external': the remote entry uses the one on the
   * page and ships none; 'bundled': its own (a standalone host, alone in its page).
   */
  runtime?: 'provide' | 'external' | 'bundled';
}

export function createConfig(
  { dir, name, exposes, title, runtime = 'bundled' }: AppOptions,
  argv: { mode?: 'development' | 'production' } = {},
): Configuration {
  const mode = argv.mode ?? 'production';
  return {
    mode,
    // No Node fallbacks in the federation runtime (browserslist would pick them otherwise).
    target: 'web',
    context: dir,
    // src/index.ts only does import('./bootstrap'): the async boundary federation needs.
    entry: './src/index.ts',
    devtool: mode === 'development' ? 'eval-cheap-module-source-map' : false,
    output: {
      path: path.join(dir, 'dist'),
      // Remotes load their own chunks from their own origin.
      publicPath: 'auto',
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
      // A failed remote chunk must fail again on retry, not hand back an empty module.
      strictModuleExceptionHandling: true,
      // A chunk request that has not answered by then is dropped, so the shell's next try (within its
      // VIEW_DEADLINE_MS, shell/src/federationPlugin.ts) asks anew instead of waiting on it (default 120 s).
      chunkLoadTimeout: 5000,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // Workspace packages resolve through their package.json `exports`: this condition picks their sources.
      conditionNames: [SOURCE_CONDITION, '...'],
      alias: {
        // provideExternalRuntime adds its runtime plugin by require.resolve, i.e. the CommonJS build, which
        // would pull a second, CommonJS copy of runtime-core into the shell: the ES build shares the one copy.
        [`${INJECT_RUNTIME_PLUGIN}.cjs$`]: `${INJECT_RUNTIME_PLUGIN}.js`,
        ...(SHARED_UI_DIR ? { '@careloop/shared-ui$': path.join(SHARED_UI_DIR, 'src', 'index.ts') } : {}),
      },
      // The patched copy lives outside the repo: its own imports resolve from the repo's node_modules.
      ...(SHARED_UI_DIR
        ? {
            modules: ['node_modules', path.join(root, 'shared-ui', 'node_modules'), path.join(root, 'node_modules')],
          }
        : {}),
    },
    module: {
      rules: sourceRules(dir),
    },
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes,
        // The shell registers remotes at runtime from runtime-config.json; nothing at build time.
        remotes: {},
        shared,
        // The default, version-first, fetches every remote at start-up: one down remote would blank the shell.
        shareStrategy: 'loaded-first',
        // Federated types cost too much build time here (docs/architecture.md "Federated types").
        dts: false,
        // mf-manifest.json beside a remote's remoteEntry.js: the shell may register a remote by either URL.
        // Not for the shell: nobody loads it as a remote.
        // Its `metaData.buildInfo.buildVersion` is the remote's own package version with the build's hash as
        // semver build metadata (`1.4.0+3f2a9c1b`): two builds of one version tell apart. Set here, not by
        // MF_BUILD_VERSION, which would label all four apps of `npm run build` (one process) alike.
        manifest: exposes
          ? {
              additionalData: ({ stats, compilation }) => {
                stats.metaData.buildInfo.buildVersion = `${appVersion(dir)}+${(compilation.hash ?? '').slice(0, 8)}`;
                return stats;
              },
            }
          : false,
        experiments: {
          provideExternalRuntime: runtime === 'provide',
          externalRuntime: runtime === 'external',
          // no Node code paths in the federation runtime (loadScriptNode and the like): a browser page only
          optimization: { target: 'web' },
        },
      }),
      // Off unless set: e2e/tests/remote-routes.spec.ts builds remote-patient with one route more and one fewer.
      new DefinePlugin({
        'process.env.CARELOOP_QA_ROUTE': JSON.stringify(process.env.CARELOOP_QA_ROUTE ?? ''),
        'process.env.CARELOOP_QA_DROP_ROUTE': JSON.stringify(process.env.CARELOOP_QA_DROP_ROUTE ?? ''),
      }),
      ...(runtime === 'external'
        ? []
        : [
            new HtmlWebpackPlugin({
              title,
              template: path.join(root, 'index.html'),
              // The shell: from the site root, so deep links (/patient/dashboard) find its scripts. A standalone
              // QA host: relative to <base href>, `/` as built, which scripts/release-remote.mjs sets to the
              // release's folder, so the same page works at a site's root and from /releases/<id>/.
              ...(runtime === 'bundled' ? { publicPath: 'auto', base: '/' } : { publicPath: '/' }),
            }),
          ]),
      // Brotli and gzip files beside each text asset, served as they are by scripts/web-server.mjs.
      ...(mode === 'production'
        ? [
            new CompressionPlugin({
              test: COMPRESSIBLE,
              exclude: DEPLOY_TIME,
              algorithm: 'brotliCompress',
              filename: '[path][base].br',
            }),
            new CompressionPlugin({ test: COMPRESSIBLE, exclude: DEPLOY_TIME, algorithm: 'gzip', filename: '[path][base].gz' }),
          ]
        : []),
    ],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * A remote is two builds into one dist: its remote entry (and mf-manifest.json) on the page's one
 * federation runtime, which the shell provides, and its standalone QA host (index.html) with a runtime of
 * its own, as nobody provides one there. Built one after the other: the first cleans dist.
 */
export function createRemoteConfigs(
  options: AppOptions & { exposes: Record<string, string> },
  argv: { mode?: 'development' | 'production' } = {},
): Configuration[] {
  const container = createConfig({ ...options, runtime: 'external' }, argv);
  const standalone = createConfig({ ...options, exposes: undefined, runtime: 'bundled' }, argv);
  return [
    // The remote entry is the container's own entry: no app entry here.
    { ...container, name: `${options.name}-entry`, entry: {} },
    {
      ...standalone,
      name: `${options.name}-standalone`,
      dependencies: [`${options.name}-entry`],
      output: { ...standalone.output, clean: false },
    },
  ];
}
