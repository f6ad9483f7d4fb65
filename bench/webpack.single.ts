// The landing page (shell + remote-public's Landing) as ONE bundle without Module Federation, for
// the bench's comparison with the federated landing. Same base as every app (webpack.common.ts:
// loaders, resolve, output naming, index.html), minus the federation plugin, with one chunk for all that it imports statically.
//   node_modules/.bin/webpack -c bench/webpack.single.ts --mode production  → bench/results/single-dist/
import path from 'path';
import type { Configuration } from 'webpack';
import { createConfig } from '../webpack.common';

export default (_env: unknown, argv: { mode?: 'development' | 'production' }): Configuration => {
  const config = createConfig({ dir: __dirname, name: 'single', title: 'CareLoop' }, { mode: argv.mode ?? 'production' });
  return {
    ...config,
    entry: './single/index.tsx',
    output: { ...config.output, path: process.env.SINGLE_OUT ?? path.join(__dirname, 'results', 'single-dist'), publicPath: '/' },
    plugins: config.plugins!.filter((p) => p?.constructor?.name !== 'ModuleFederationPlugin'),
    // Everything the page imports in one chunk; what it imports lazily (password strength, charts)
    // stays lazy, as in the federated build — merging it in would make the baseline ~900 KB.
    optimization: { splitChunks: false },
  };
};
