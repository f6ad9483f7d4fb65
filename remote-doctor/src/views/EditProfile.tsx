import { useEffect } from 'react';
import { useNavigate } from '@careloop/shared-router';
import { DoctorProfileFields, GENDERS, needsCurrentPassword, type Gender } from '@careloop/shared-contracts';
import { useDoctorProfile, useUpdateProfile } from '@careloop/shared-auth';
import {
  AccountFields,
  EDIT_ACCOUNT_FIELDS,
  FormSelectField,
  FormTextField,
  Heading,
  MultiStepForm,
  Narrow,
  Page,
  joinList,
  listFromText,
  onlyFilledIn,
  useSchemaForm,
  savedState,
} from '@careloop/shared-ui';

const EMPTY = {
  name: '',
  email: '',
  password: '',
  currentPassword: '',
  yearsOfExperience: '',
  specialization: '',
  qualifications: '',
  gender: '' as Gender | '',
};

/** The api's update schema; the lists are typed as comma-separated text, empty ones not sent. */
const EditFormSchema = onlyFilledIn(
  DoctorProfileFields.extend({
    specialization: listFromText(DoctorProfileFields.shape.specialization),
    qualifications: listFromText(DoctorProfileFields.shape.qualifications),
  }).superRefine(needsCurrentPassword),
);

/** Three-step edit; only filled-in fields are sent (SPEC §5). */
export default function EditProfile() {
  const navigate = useNavigate();
  const { data } = useDoctorProfile();
  const update = useUpdateProfile('doctor');
  const form = useSchemaForm(EditFormSchema, EMPTY);
  const { reset } = form;
  useEffect(() => {
    if (!data) return;
    const d = data.doctor;
    reset({
      ...EMPTY,
      name: d.name,
      email: d.email,
      gender: d.gender,
      yearsOfExperience: String(d.yearsOfExperience),
      specialization: joinList(d.specialization),
      qualifications: joinList(d.qualifications),
    });
  }, [data, reset]);

  return (
    <Page>
      <Narrow>
        <Heading>Edit your profile</Heading>
        <MultiStepForm
          label="Edit profile"
          form={form}
          failure={() => 'Could not update. Try again?'}
          onFinish={async (changes) => {
            await update.mutateAsync(changes);
            navigate('/doctor/dashboard', { state: savedState('Your profile was saved.') });
          }}
          steps={[
            {
              title: 'Account',
              fields: EDIT_ACCOUNT_FIELDS,
              content: <AccountFields mode="edit" pendingEmail={data?.doctor.pendingEmail} />,
            },
            {
              title: 'Practice',
              fields: ['yearsOfExperience', 'specialization', 'qualifications'],
              content: (
                <>
                  <FormTextField name="yearsOfExperience" label="Years of experience" type="number" min={1} />
                  <FormTextField name="specialization" label="Specialization (comma-separated)" />
                  <FormTextField name="qualifications" label="Qualifications (comma-separated)" />
                </>
              ),
            },
            {
              title: 'About you',
              fields: ['gender'],
              content: <FormSelectField name="gender" label="Gender" options={GENDERS} />,
            },
          ]}
        />
      </Narrow>
    </Page>
  );
}
