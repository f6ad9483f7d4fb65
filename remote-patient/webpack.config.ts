import { createConfig } from '../webpack.common';

export default (_env: unknown, argv: { mode?: 'development' | 'production' }) =>
  createConfig(
    {
      dir: __dirname,
      name: 'remote_patient',
      title: 'CareLoop — patient area',
      exposes: {
        './Signup': './src/views/Signup.tsx',
        './Dashboard': './src/views/Dashboard.tsx',
        './EditProfile': './src/views/EditProfile.tsx',
        './CompleteProfile': './src/views/CompleteProfile.tsx',
        './EnableTwoFactor': './src/views/EnableTwoFactor.tsx',
        './AssignDoctors': './src/views/AssignDoctors.tsx',
        './IncomingRequests': './src/views/IncomingRequests.tsx',
        './OutgoingRequests': './src/views/OutgoingRequests.tsx',
        './Records': './src/views/Records.tsx',
        './MedicalRecord': './src/views/MedicalRecord.tsx',
        './Prescriptions': './src/views/Prescriptions.tsx',
        './MedicalFiles': './src/views/MedicalFiles.tsx',
        './UploadFile': './src/views/UploadFile.tsx',
        './AccessHistory': './src/views/AccessHistory.tsx',
      },
    },
    argv,
  );
