import { createRemoteConfigs } from '../webpack.common';

export default (_env: unknown, argv: { mode?: 'development' | 'production' }) =>
  createRemoteConfigs(
    {
      dir: __dirname,
      name: 'remote_doctor',
      title: 'CareLoop — doctor area',
      // The shell asks only for the route list; each view is a chunk the list loads on demand.
      exposes: { './routes': './src/routes.ts' },
    },
    argv,
  );
