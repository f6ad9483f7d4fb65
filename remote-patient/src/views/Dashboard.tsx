import { registrationLine } from '@careloop/shared-contracts';
import { Navigate } from '@careloop/shared-router';
import { usePatientProfile } from '@careloop/shared-auth';
import {
  AssignedPeople,
  DashboardCard,
  formatDate,
  ProfilePlaceholder,
  Grid,
  Heading,
  Page,
  ProfileSummary,
  TwoFactorSuggestion,
  VerifyEmailBanner,
  TwoFactorCard,
  SavedNotice,
} from '@careloop/shared-ui';

export default function Dashboard() {
  const profile = usePatientProfile();
  const { data } = profile;
  // The profile holds the doctors too: if it cannot be read, both cards say so (never a blank wait).
  const failed = !data && profile.isError;
  const retry = () => void profile.refetch();
  const patient = data?.patient;
  // An account made through Google sign-in completes its profile first.
  if (patient && !patient.profileComplete) return <Navigate to="/patient/complete-profile" replace />;
  const address =
    patient &&
    [patient.address.street, patient.address.city, patient.address.state, patient.address.pinCode].filter(Boolean).join(', ');
  return (
    <Page>
      <Heading>Patient dashboard</Heading>
      <SavedNotice />
      <VerifyEmailBanner role="patient" />
      <Grid>
        {patient ? (
          <ProfileSummary
            name={patient.name}
            pendingEmail={patient.pendingEmail}
            editTo="/patient/edit"
            facts={[
              ['Email', patient.email],
              ['Date of birth', patient.DOB ? formatDate(patient.DOB) : ''],
              ['Gender', patient.gender],
              ['Marital status', patient.maritalStatus],
              ['Occupation', patient.occupation],
              ['Address', address],
            ]}
          />
        ) : (
          <ProfilePlaceholder failed={failed} onRetry={retry} />
        )}
        <DashboardCard
          title="Files"
          text="Your medical PDF files: reports, scans, letters."
          actions={[
            { text: 'View', to: '/patient/dashboard/medical-files' },
            { text: 'Upload', to: '/patient/dashboard/medical-files/upload' },
          ]}
        />
        <DashboardCard
          title="Prescription"
          text="Medicines your doctors have prescribed."
          actions={[{ text: 'View', to: '/prescription' }]}
        />
        <DashboardCard
          title="Medical Records"
          text="Your records and the summaries your doctors generated."
          actions={[{ text: 'View history', to: '/patient/all-medical-records' }]}
        />
        <DashboardCard
          title="Connect to Doctors"
          text="Ask a doctor to follow your care, and answer doctors' requests."
          actions={[
            { text: 'Connect', to: '/patient/assign-doctors' },
            { text: 'Incoming', to: '/patient/view-incoming-requests' },
            { text: 'Outgoing', to: '/patient/view-outgoing-requests' },
          ]}
        />
        <AssignedPeople
          title="Assigned Doctors"
          role="patient"
          empty="No assigned doctors yet"
          failed={failed ? { text: 'Could not load your doctors.', onRetry: retry } : undefined}
          people={patient?.assignedDoctors.map((d) => ({
            id: d.doctor,
            name: d.name,
            details: <small>{registrationLine(d.registration)}</small>,
          }))}
        />
        <DashboardCard
          title="Access history"
          text="See who opened or changed your records, prescriptions and files, and when."
          actions={[{ text: 'See access history', to: '/patient/access-history' }]}
        />
        <TwoFactorCard role="patient" enabled={patient?.twoFactorEnabled} />
      </Grid>
      {/* After the cards: it appears once the profile has come, and moves nothing already shown (CLS). */}
      <TwoFactorSuggestion role="patient" twoFactorEnabled={patient?.twoFactorEnabled} />
    </Page>
  );
}
