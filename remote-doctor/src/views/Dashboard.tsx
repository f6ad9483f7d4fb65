import { lazy, Suspense } from 'react';
import { useDoctorProfile, useDrafts } from '@careloop/shared-auth';
import { registrationName } from '@careloop/shared-contracts';
import {
  Banner,
  DashboardCard,
  ProfilePlaceholder,
  Grid,
  Heading,
  Page,
  ProfileSummary,
  joinList,
  LoadFailed,
  VerifyEmailBanner,
  TwoFactorCard,
  SavedNotice,
} from '@careloop/shared-ui';
import { Worklist } from './Worklist';
import { awaitingVerification } from './registration';

// Names the step a record draft was left at, from the contract's record form: loaded only when there are drafts.
const UnfinishedDrafts = lazy(() => import('./UnfinishedDrafts').then((m) => ({ default: m.UnfinishedDrafts })));
/** Still loading: the app keeps its prerendered first screen meanwhile, so nothing moves in view (shell/src/prerendered.ts). */
const Loading = () => <div aria-busy="true" />;

export default function Dashboard() {
  const profile = useDoctorProfile();
  const { data } = profile;
  const drafts = useDrafts();
  const doctor = data?.doctor;
  const awaiting = awaitingVerification(doctor);
  return (
    <Page>
      <Heading>Doctor dashboard</Heading>
      <SavedNotice />
      <VerifyEmailBanner role="doctor" />
      {awaiting && <Banner tone="info">{awaiting}</Banner>}
      {/* after sign-in, what the doctor left unsent: any sign-out, tab or device */}
      {drafts.isPending ? (
        <Loading />
      ) : drafts.isError ? (
        // unsent work the doctor cannot see is never taken for none
        <LoadFailed text="Could not check for records and prescriptions you left unsent." onRetry={() => void drafts.refetch()} />
      ) : drafts.data?.length ? (
        <Suspense fallback={<Loading />}>
          <UnfinishedDrafts />
        </Suspense>
      ) : null}
      <Grid>
        {/* the doctor's first question: who needs me most (full width) */}
        <Worklist />
        {doctor ? (
          <ProfileSummary
            name={doctor.name}
            pendingEmail={doctor.pendingEmail}
            editTo="/doctor/edit"
            facts={[
              ['Email', doctor.email],
              ['Years of experience', String(doctor.yearsOfExperience)],
              ['Specialization', joinList(doctor.specialization)],
              ['Qualifications', joinList(doctor.qualifications)],
              ['Gender', doctor.gender],
              ['Registration', registrationName(doctor.registration) ?? 'Not given'],
            ]}
          />
        ) : (
          <ProfilePlaceholder failed={!data && profile.isError} onRetry={() => void profile.refetch()} />
        )}
        <DashboardCard
          title="Files"
          text="Medical files your patients have shared."
          actions={[{ text: 'View', to: '/doctor/dashboard/medical-files' }]}
        />
        <DashboardCard
          title="Prescription"
          text="Prescribe for one of your patients."
          actions={[{ text: 'Create', to: '/create-prescription' }]}
        />
        <DashboardCard
          title="Medical Records"
          text="Your patients' records, and new structured records."
          actions={[
            { text: 'View', to: '/doctor/all-medical-records' },
            { text: 'Create new', to: '/medical-record/create' },
          ]}
        />
        <DashboardCard
          title="Connect to Patients"
          text="Ask a patient to join your care, and answer patients' requests."
          actions={[
            { text: 'Connect', to: '/doctor/assign-patients' },
            { text: 'Incoming', to: '/doctor/view-incoming-requests' },
            { text: 'Outgoing', to: '/doctor/view-outgoing-requests' },
          ]}
        />
        <DashboardCard
          title="Access history"
          text="See your account's sign-ins, failed sign-ins and password, e-mail and two-factor changes."
          actions={[{ text: 'See access history', to: '/doctor/access-history' }]}
        />
        <TwoFactorCard role="doctor" enabled={doctor?.twoFactorEnabled} />
        {/* The original used the relative path "reminder"; absolute, so it also works when the dashboard shows at /. */}
        <DashboardCard
          title="Send Reminder"
          text="Schedule reminder e-mails to a patient."
          actions={[{ text: 'Schedule', to: '/doctor/dashboard/reminder' }]}
        />
      </Grid>
    </Page>
  );
}
