import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GENDERS, type Gender } from 'shared-contracts';
import { useDoctorProfile, useUpdateProfile } from 'shared-auth';
import { AccountFields, Heading, MultiStepForm, Narrow, Page, SelectField, TextField, joinList, splitList, withoutEmpty } from 'shared-ui';

const EMPTY = {
  name: '', email: '', password: '', yearsOfExperience: '', specialization: '', qualifications: '',
  gender: '' as Gender | '',
};

/** Three-step edit; only filled-in fields are sent (SPEC §5). */
export default function EditProfile() {
  const navigate = useNavigate();
  const { data } = useDoctorProfile();
  const update = useUpdateProfile('doctor');
  const [form, setForm] = useState(EMPTY);
  useEffect(() => {
    if (!data) return;
    const d = data.doctor;
    setForm({
      ...EMPTY, name: d.name, email: d.email, gender: d.gender,
      yearsOfExperience: String(d.yearsOfExperience),
      specialization: joinList(d.specialization),
      qualifications: joinList(d.qualifications),
    });
  }, [data]);
  const set = (field: 'yearsOfExperience' | 'specialization' | 'qualifications') => (value: string) =>
    setForm((f) => ({ ...f, [field]: value }));

  const submit = () => {
    const { yearsOfExperience, specialization, qualifications, ...rest } = form;
    const body = withoutEmpty({
      ...rest,
      yearsOfExperience: yearsOfExperience ? Number(yearsOfExperience) : undefined,
      specialization: splitList(specialization),
      qualifications: splitList(qualifications),
    });
    update.mutate(body as Parameters<typeof update.mutate>[0], { onSuccess: () => navigate('/doctor/dashboard') });
  };

  return (
    <Page>
      <Narrow>
        <Heading>Edit your profile</Heading>
        <MultiStepForm
          label="Edit profile"
          busy={update.isPending}
          error={update.isError && 'Could not update. Try again?'}
          onFinish={submit}
          steps={[
            {
              title: 'Account',
              content: <AccountFields value={form} onChange={(account) => setForm((f) => ({ ...f, ...account }))} mode="edit" />,
            },
            {
              title: 'Practice',
              content: (
                <>
                  <TextField label="Years of experience" type="number" min={1} value={form.yearsOfExperience} onChange={set('yearsOfExperience')} />
                  <TextField label="Specialization (comma-separated)" value={form.specialization} onChange={set('specialization')} />
                  <TextField label="Qualifications (comma-separated)" value={form.qualifications} onChange={set('qualifications')} />
                </>
              ),
            },
            {
              title: 'About you',
              content: <SelectField label="Gender" value={form.gender} options={GENDERS} onChange={(gender) => setForm((f) => ({ ...f, gender }))} />,
            },
          ]}
        />
      </Narrow>
    </Page>
  );
}
