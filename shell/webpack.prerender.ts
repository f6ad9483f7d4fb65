import path from 'node:path';
import type { Configuration } from 'webpack';
import { SOURCE_CONDITION, sourceRules } from '../webpack.common';

/** prerender/pages.tsx as a CommonJS module for Node (scripts/prerender.mjs runs it once per build). */
export default (): Configuration => ({
  mode: 'production',
  target: 'node20',
  entry: path.join(__dirname, 'prerender', 'pages.tsx'),
  output: {
    path: path.join(__dirname, 'prerender-dist'),
    filename: 'pages.cjs',
    library: { type: 'commonjs2' },
    clean: true,
  },
  optimization: { minimize: false },
  resolve: { extensions: ['.tsx', '.ts', '.js'], conditionNames: [SOURCE_CONDITION, '...'] },
  module: { rules: sourceRules(__dirname) },
  performance: { hints: false },
});
