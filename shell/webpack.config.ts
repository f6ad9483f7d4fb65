import { sources, type Compiler } from 'webpack';
import { createConfig } from '../webpack.common';

/** The shell's default runtime-config.json: the local ports. A deployment replaces the file, not the build. */
const defaults = {
  apiUrl: 'http://localhost:4000',
  remotes: {
    public: 'http://localhost:8081/mf-manifest.json',
    patient: 'http://localhost:8082/mf-manifest.json',
    doctor: 'http://localhost:8083/mf-manifest.json',
  },
};

export default (_env: unknown, argv: { mode?: 'development' | 'production' }) => {
  const config = createConfig({ dir: __dirname, name: 'shell', title: 'CareLoop', runtime: 'provide' }, argv);
  config.plugins!.push({
    apply(compiler: Compiler) {
      compiler.hooks.thisCompilation.tap('RuntimeConfig', (compilation) => {
        compilation.hooks.processAssets.tap('RuntimeConfig', () => {
          compilation.emitAsset('runtime-config.json', new sources.RawSource(JSON.stringify(defaults, null, 2)));
        });
      });
    },
  });
  return config;
};
