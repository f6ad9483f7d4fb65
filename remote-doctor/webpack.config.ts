import { createConfig } from '../webpack.common';

export default (_env: unknown, argv: { mode?: 'development' | 'production' }) =>
  createConfig(
    {
      dir: __dirname,
      name: 'remote_doctor',
      title: 'CareLoop — doctor area',
      exposes: {
        './Signup': './src/views/Signup.tsx',
        './Dashboard': './src/views/Dashboard.tsx',
        './EditProfile': './src/views/EditProfile.tsx',
        './CompleteProfile': './src/views/CompleteProfile.tsx',
        './EnableTwoFactor': './src/views/EnableTwoFactor.tsx',
        './AssignPatients': './src/views/AssignPatients.tsx',
        './IncomingRequests': './src/views/IncomingRequests.tsx',
        './OutgoingRequests': './src/views/OutgoingRequests.tsx',
        './Records': './src/views/Records.tsx',
        './MedicalRecord': './src/views/MedicalRecord.tsx',
        './Prescriptions': './src/views/Prescriptions.tsx',
        './MedicalFiles': './src/views/MedicalFiles.tsx',
        './Reminder': './src/views/Reminder.tsx',
        './AccessHistory': './src/views/AccessHistory.tsx',
        './PickRecordPatient': './src/views/PickRecordPatient.tsx',
        './CreateRecord': './src/views/CreateRecord.tsx',
        './PickPrescriptionPatient': './src/views/PickPrescriptionPatient.tsx',
        './CreatePrescription': './src/views/CreatePrescription.tsx',
      },
    },
    argv,
  );
