import { createConfig } from '../webpack.common';

export default (_env: unknown, argv: { mode?: 'development' | 'production' }) =>
  createConfig(
    {
      dir: __dirname,
      name: 'remote_public',
      title: 'CareLoop — public pages',
      exposes: {
        './Landing': './src/views/Landing.tsx',
        './About': './src/views/About.tsx',
        './Team': './src/views/Team.tsx',
        './Features': './src/views/Features.tsx',
        './Contact': './src/views/Contact.tsx',
        './Login': './src/views/Login.tsx',
        './ForgotPassword': './src/views/ForgotPassword.tsx',
        './ResetPassword': './src/views/ResetPassword.tsx',
      },
    },
    argv,
  );
