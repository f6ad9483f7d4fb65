import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { DoctorProfileUpdate, GENDERS, type Gender } from 'shared-contracts';
import { useDoctorProfile, useUpdateProfile } from 'shared-auth';
import {
  ACCOUNT_FIELDS,
  AccountFields,
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
} from 'shared-ui';

const EMPTY = {
  name: '',
  email: '',
  password: '',
  yearsOfExperience: '',
  specialization: '',
  qualifications: '',
  gender: '' as Gender | '',
};

/** The api's update schema; the lists are typed as comma-separated text, empty ones not sent. */
const EditFormSchema = onlyFilledIn(
  DoctorProfileUpdate.extend({
    specialization: listFromText(DoctorProfileUpdate.shape.specialization),
    qualifications: listFromText(DoctorProfileUpdate.shape.qualifications),
  }),
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
            navigate('/doctor/dashboard');
          }}
          steps={[
            { title: 'Account', fields: ACCOUNT_FIELDS, content: <AccountFields mode="edit" /> },
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
