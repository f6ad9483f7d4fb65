import path from 'node:path';
import type { Configuration } from 'webpack';
import { SOURCE_CONDITION } from '../webpack.common';

/** prerender/landing.tsx as a CommonJS module for Node (scripts/prerender.mjs runs it once per build). */
export default (): Configuration => ({
  mode: 'production',
  target: 'node20',
  entry: path.join(__dirname, 'prerender', 'landing.tsx'),
  output: {
    path: path.join(__dirname, 'prerender-dist'),
    filename: 'landing.cjs',
    library: { type: 'commonjs2' },
    clean: true,
  },
  optimization: { minimize: false },
  resolve: { extensions: ['.tsx', '.ts', '.js'], conditionNames: [SOURCE_CONDITION, '...'] },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        loader: 'ts-loader',
        options: { transpileOnly: true, configFile: path.join(__dirname, 'tsconfig.json') },
      },
      { test: /\.css$/, type: 'asset/source' },
    ],
  },
  performance: { hints: false },
});
