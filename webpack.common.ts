import path from 'path';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { Configuration } from 'webpack';

const root = __dirname;
/** The `exports` condition under which a workspace package names its TypeScript sources (see shared-contracts/package.json). */
export const SOURCE_CONDITION = '@careloop/source';
const versionOf = (pkg: string): string =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(path.join(root, 'node_modules', pkg, 'package.json')).version;

/** One instance of each in the page, whichever app loaded it first (ARCHITECTURE: singletons). */
const SINGLETONS = [
  'react',
  'react-dom',
  'react-router',
  'react-router-dom',
  'zustand',
  'styled-components',
  '@tanstack/react-query',
  'shared-auth',
  'shared-ui',
  // shared-ui's fields read the form a remote's view created (useFormContext): one instance.
  'react-hook-form',
];
export const shared = Object.fromEntries(
  SINGLETONS.map((pkg) => [pkg, { singleton: true, requiredVersion: `^${versionOf(pkg)}` }]),
);

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** A deployment replaces this file after the build: a stale compressed copy beside it would win. */
const DEPLOY_TIME = /runtime-config\.json$/;

export interface AppOptions {
  /** the package folder (pass __dirname) */
  dir: string;
  /** the federation name, a JS identifier: shell, remote_public, … */
  name: string;
  /** the views a remote exposes to the shell */
  exposes?: Record<string, string>;
  title: string;
}

export function createConfig(
  { dir, name, exposes, title }: AppOptions,
  argv: { mode?: 'development' | 'production' } = {},
): Configuration {
  const mode = argv.mode ?? 'production';
  return {
    mode,
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
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // Workspace packages resolve through their package.json `exports`: this condition picks their sources.
      conditionNames: [SOURCE_CONDITION, '...'],
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'ts-loader',
          options: { transpileOnly: true, configFile: path.join(dir, 'tsconfig.json') },
        },
        { test: /\.(png|jpe?g|svg|webp)$/, type: 'asset/resource' },
      ],
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
        dts: false,
        manifest: false,
      }),
      new HtmlWebpackPlugin({ title, publicPath: '/', template: path.join(root, 'index.html') }),
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
