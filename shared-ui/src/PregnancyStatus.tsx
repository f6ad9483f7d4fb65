import { useId, useState } from 'react';
import type { Pregnancy, Role } from '@careloop/shared-contracts';
import { usePatientProfile, usePregnancy, useSetPregnancy } from '@careloop/shared-auth';
import { Banner, Button, Card } from './components';

const STATUS_TEXT: Record<Pregnancy['status'], string> = {
  pregnant: 'Pregnant',
  'not-pregnant': 'Not pregnant',
  unknown: 'Unknown',
};

const describe = (p: Pregnancy) =>
  p.status === 'pregnant' && p.gestationWeeks ? `Pregnant, ${p.gestationWeeks} weeks` : STATUS_TEXT[p.status];

/**
 * The patient's pregnancy status beside their records: NEWS2 is not validated in pregnancy, so
 * every record's assessment says so while it is "pregnant". A doctor sets it; the patient reads it.
 */
export function PregnancyStatus({ role, patientId }: { role: Role; patientId?: string }) {
  if (role === 'patient') return <OwnPregnancy />;
  return patientId ? <PregnancyCard role="doctor" patientId={patientId} /> : null;
}

function OwnPregnancy() {
  const profile = usePatientProfile();
  return <PregnancyCard role="patient" patientId={profile.data?.patient._id} />;
}

function PregnancyCard({ role, patientId }: { role: Role; patientId: string | undefined }) {
  const pregnancy = usePregnancy(patientId);
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId} style={{ margin: '1rem 0' }}>
      <h2 id={headingId} style={{ margin: '0 0 0.5rem', fontSize: '1.25rem' }}>
        Pregnancy
      </h2>
      {pregnancy.isError && <Banner tone="error">Could not load the pregnancy status.</Banner>}
      {pregnancy.data && <p style={{ margin: '0 0 0.5rem' }}>{describe(pregnancy.data)}</p>}
      {role === 'doctor' && patientId && pregnancy.data && (
        <PregnancyForm key={describe(pregnancy.data)} patientId={patientId} current={pregnancy.data} />
      )}
    </Card>
  );
}

function PregnancyForm({ patientId, current }: { patientId: string; current: Pregnancy }) {
  const save = useSetPregnancy(patientId);
  const [status, setStatus] = useState<Pregnancy['status']>(current.status);
  const [weeks, setWeeks] = useState(current.gestationWeeks ? String(current.gestationWeeks) : '');
  const statusId = useId();
  const weeksId = useId();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ status, gestationWeeks: status === 'pregnant' && weeks ? Number(weeks) : null });
      }}
      style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'end' }}
    >
      <label htmlFor={statusId} style={{ display: 'grid' }}>
        Status
        <select id={statusId} value={status} onChange={(e) => setStatus(e.target.value as Pregnancy['status'])}>
          {Object.entries(STATUS_TEXT).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {status === 'pregnant' && (
        <label htmlFor={weeksId} style={{ display: 'grid' }}>
          Gestation (weeks)
          <input id={weeksId} type="number" min={1} max={45} value={weeks} onChange={(e) => setWeeks(e.target.value)} />
        </label>
      )}
      <Button type="submit" busy={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save pregnancy status'}
      </Button>
      {save.isError && <Banner tone="error">Could not save the pregnancy status. Check the gestation (1–45 weeks).</Banner>}
      {save.isSuccess && <Banner tone="success">Pregnancy status saved: the records are assessed again.</Banner>}
    </form>
  );
}
