import { useId, useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import styled from 'styled-components';
import { z } from 'zod';
import {
  ALLERGY_CATEGORIES,
  ALLERGY_CLINICAL_STATUSES,
  ALLERGY_CRITICALITIES,
  ALLERGY_TYPES,
  ALLERGY_VERIFICATION_STATUSES,
  AllergyIntoleranceFields,
  AllergyReportFields,
  REACTION_SEVERITIES,
  statusReasonGiven,
  type AllergyIntoleranceWrite,
  RequiredText,
  Text,
  type AllergyIntolerance,
  type Role,
} from '@careloop/shared-contracts';
import {
  serverError,
  useAllergies,
  useCreateAllergy,
  usePatientProfile,
  useReportAllergy,
  useSubstanceSuggestions,
  useUpdateAllergy,
} from '@careloop/shared-auth';
import { Banner, Button, Card, EmptyState, Row } from './components';
import { useClinicTime } from './dates';
import { FormSelectField, FormTextAreaField, FormTextField, SubmitButton } from './fields';
import { TextField } from './inputs';
import { emptyAsUnset, useSchemaForm } from './formSchemas';
import { SchemaForm } from './SchemaForm';
import { theme } from './theme';

/*
 * A patient's allergy list (issue 13), on the records page of both roles. A doctor adds, edits,
 * confirms and refutes (delabels) entries, and reviews the ones read from the free-text allergy
 * notes of records and prescriptions; a patient sees them all and may report one, unconfirmed.
 */

type Write = z.input<typeof AllergyIntoleranceWrite>;

const criticalityLabels: Record<string, string> = { 'unable-to-assess': 'unable to assess' };

// The form's reactions: a severity left at "Select…" is no severity.
const ReactionFields = z.array(
  z.strictObject({
    manifestation: RequiredText(200),
    severity: emptyAsUnset(z.enum(REACTION_SEVERITIES).optional()),
  }),
);
const formFields = {
  reactions: ReactionFields.max(10),
  note: emptyAsUnset(Text(1000).optional()),
  statusReason: emptyAsUnset(Text(500).optional()),
};
const DoctorForm = statusReasonGiven(AllergyIntoleranceFields.extend(formFields));
const PatientForm = statusReasonGiven(AllergyReportFields.extend(formFields));

interface FormValues {
  substance: { text: string };
  type: string;
  category: string;
  criticality: string;
  reactions: { manifestation: string; severity: string }[];
  clinicalStatus: string;
  verificationStatus: string;
  note: string;
  statusReason: string;
}

const blank: FormValues = {
  substance: { text: '' },
  type: 'allergy',
  category: 'medication',
  criticality: 'unable-to-assess',
  reactions: [],
  clinicalStatus: 'active',
  verificationStatus: 'unconfirmed',
  note: '',
  statusReason: '',
};

const valuesOf = (a: AllergyIntolerance): FormValues => ({
  substance: { text: a.substance.text.slice(0, 200) },
  type: a.type,
  category: a.category,
  criticality: a.criticality,
  reactions: a.reactions.map((r) => ({ manifestation: r.manifestation.slice(0, 200), severity: r.severity ?? '' })),
  clinicalStatus: a.clinicalStatus,
  verificationStatus: a.verificationStatus,
  note: a.note ?? '',
  statusReason: a.statusReason ?? '',
});

/** The entry as a write, with another verification status (Confirm; Refute with its reason). */
const writeOf = (
  a: AllergyIntolerance,
  verificationStatus: AllergyIntolerance['verificationStatus'],
  statusReason?: string,
): Write => ({
  substance: { text: a.substance.text.slice(0, 200) },
  type: a.type,
  category: a.category,
  criticality: a.criticality,
  reactions: a.reactions.map((r) => ({ ...r, manifestation: r.manifestation.slice(0, 200) })),
  clinicalStatus: a.clinicalStatus,
  verificationStatus,
  ...(a.note ? { note: a.note.slice(0, 1000) } : {}),
  ...(statusReason ? { statusReason } : {}),
});

const ReactionRow = styled.fieldset`
  border: 1px solid ${theme.color.border};
  border-radius: 8px;
  padding: 0.6rem 0.8rem 0;
  margin: 0 0 0.9rem;
  legend {
    font-weight: 600;
    font-size: 0.95rem;
  }
`;

function ReactionsFields() {
  const { control } = useFormContext<FormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'reactions' });
  return (
    <>
      {fields.map((field, i) => (
        <ReactionRow key={field.id}>
          <legend>Reaction {i + 1}</legend>
          <FormTextField name={`reactions.${i}.manifestation`} label="Manifestation" placeholder="e.g. anaphylaxis, rash" />
          <FormSelectField name={`reactions.${i}.severity`} label="Severity" options={REACTION_SEVERITIES} />
          <Button type="button" $variant="secondary" onClick={() => remove(i)} style={{ marginBottom: '0.9rem' }}>
            Remove reaction {i + 1}
          </Button>
        </ReactionRow>
      ))}
      {fields.length < 10 && (
        <Button
          type="button"
          $variant="secondary"
          onClick={() => append({ manifestation: '', severity: '' })}
          style={{ marginBottom: '0.9rem' }}
        >
          Add a reaction
        </Button>
      )}
    </>
  );
}

/** The substance, with the vocabulary's names offered as one types (the api codes what it knows). */
function SubstanceField() {
  const typed = useWatch<FormValues, 'substance.text'>({ name: 'substance.text' });
  const suggestions = useSubstanceSuggestions(typed ?? '');
  const listId = useId();
  const hintId = useId();
  return (
    <>
      <FormTextField
        name="substance.text"
        label="Substance"
        required
        list={listId}
        autoComplete="off"
        aria-describedby={hintId}
      />
      <datalist id={listId}>
        {(suggestions.data?.items ?? []).map((s) => (
          <option key={s.code} value={s.name} />
        ))}
      </datalist>
      <small id={hintId} style={{ display: 'block', margin: '-0.6rem 0 0.9rem', color: theme.color.muted }}>
        A medicine, food or other substance; names the vocabulary knows are coded, others are kept as written (uncoded).
      </small>
    </>
  );
}

/** The entry form: a doctor's full entry, or a patient's report (no verification status: it is unconfirmed). */
function AllergyForm({
  role,
  title,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  role: Role;
  title: string;
  initial: FormValues;
  submitLabel: string;
  onSubmit(body: Write): Promise<unknown>;
  onCancel(): void;
}) {
  const form = useSchemaForm(role === 'doctor' ? DoctorForm : PatientForm, initial);
  const [error, setError] = useState<string | null>(null);
  async function submit(body: Write) {
    setError(null);
    try {
      await onSubmit(body);
    } catch (err) {
      setError(`Error: ${(await serverError(err)) ?? 'Could not save the allergy'}`);
    }
  }
  return (
    <SchemaForm form={form} label={title} onSubmit={(body) => submit(body as Write)}>
      <h3>{title}</h3>
      <SubstanceField />
      <FormSelectField name="type" label="Type" options={ALLERGY_TYPES} />
      <FormSelectField name="category" label="Category" options={ALLERGY_CATEGORIES} />
      <FormSelectField name="criticality" label="Criticality" options={ALLERGY_CRITICALITIES} optionLabels={criticalityLabels} />
      <ReactionsFields />
      {role === 'doctor' && (
        <>
          <FormSelectField name="clinicalStatus" label="Clinical status" options={ALLERGY_CLINICAL_STATUSES} />
          <FormSelectField name="verificationStatus" label="Verification status" options={ALLERGY_VERIFICATION_STATUSES} />
          <FormTextField name="statusReason" label="Reason (needed to refute, or to make inactive or resolved)" />
        </>
      )}
      <FormTextAreaField name="note" label="Note" />
      {error && <Banner tone="error">{error}</Banner>}
      <Row>
        <SubmitButton>{submitLabel}</SubmitButton>
        <Button type="button" $variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </Row>
    </SchemaForm>
  );
}

const Entries = styled.ul`
  list-style: none;
  margin: 0 0 1rem;
  padding: 0;
  li {
    padding: 0.8rem 0;
    border-bottom: 1px solid ${theme.color.border};
    overflow-wrap: anywhere;
  }
  p {
    margin: 0.2rem 0;
  }
  small {
    color: ${theme.color.muted};
  }
`;

const Status = styled.span<{ $status: AllergyIntolerance['verificationStatus'] }>`
  font-weight: 600;
  color: ${({ $status }) =>
    $status === 'confirmed' ? theme.color.danger : $status === 'refuted' ? theme.color.muted : theme.color.primaryDark};
`;

const Review = styled.p`
  border-left: 4px solid #b45309;
  background: #fffbeb;
  color: #92400e;
  padding: 0.3rem 0.6rem;
`;

const sourceWords = { record: 'a medical record', prescription: 'a prescription' } as const;

function EntryFacts({ entry }: { entry: AllergyIntolerance }) {
  const reactions = entry.reactions.map((r) => (r.severity ? `${r.manifestation} (${r.severity})` : r.manifestation));
  const recordedOn = useClinicTime().formatDate(entry.recordedAt);
  return (
    <>
      <p>
        <strong>{entry.substance.text}</strong>
        {!entry.substance.code && <small> (uncoded)</small>} —{' '}
        <Status $status={entry.verificationStatus}>{entry.verificationStatus}</Status>
      </p>
      <p>
        {entry.type} · {entry.category} · {entry.clinicalStatus} · criticality{' '}
        {criticalityLabels[entry.criticality] ?? entry.criticality}
      </p>
      {entry.review && (
        <Review>Unconfirmed — review: {entry.review}. It is checked as an allergy until a doctor resolves it.</Review>
      )}
      {reactions.length > 0 && <p>Reactions: {reactions.join(', ')}</p>}
      {entry.note && <p>Note: {entry.note}</p>}
      {entry.statusReason && (
        <p>
          Why {entry.verificationStatus === 'refuted' ? 'refuted' : entry.clinicalStatus}: {entry.statusReason}
        </p>
      )}
      {entry.source !== 'structured' ? (
        <p>
          <small>
            Written in {sourceWords[entry.source]} by {entry.recordedBy.name || 'a doctor'} on {recordedOn}: “{entry.sourceText}”
            — not yet reviewed by a doctor
          </small>
        </p>
      ) : (
        <p>
          <small>
            Recorded by {entry.recordedBy.role === 'patient' ? `${entry.recordedBy.name} (patient)` : entry.recordedBy.name} on{' '}
            {recordedOn}
            {entry.sourceText && ` · reviews the note “${entry.sourceText}”`}
          </small>
        </p>
      )}
    </>
  );
}

type Editing = { kind: 'add' } | { kind: 'edit'; entry: AllergyIntolerance } | null;

/** The doctor's view: every entry with its actions, and the form that adds, edits or reviews one. */
function DoctorAllergies({ patientId, entries }: { patientId: string; entries: AllergyIntolerance[] }) {
  const create = useCreateAllergy(patientId);
  const update = useUpdateAllergy();
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string | null>(null);
  const [refuting, setRefuting] = useState<{ entry: AllergyIntolerance; reason: string } | null>(null);

  /** Writes an entry: a structured one is updated; one read from a note is reviewed by a new structured entry. */
  async function save(entry: AllergyIntolerance | undefined, body: Write) {
    if (!entry) return create.mutateAsync(body);
    if (entry._id) return update.mutateAsync({ id: entry._id, body });
    return create.mutateAsync({ ...body, reviews: entry.sourceText });
  }
  async function setStatus(entry: AllergyIntolerance, status: AllergyIntolerance['verificationStatus'], reason?: string) {
    setError(null);
    try {
      await save(entry, writeOf(entry, status, reason));
      setRefuting(null);
    } catch (err) {
      setError(`Error: ${(await serverError(err)) ?? 'Could not save the allergy'}`);
    }
  }
  const busy = create.isPending || update.isPending;

  return (
    <>
      {entries.length > 0 && (
        <Entries aria-label="Allergy entries">
          {entries.map((entry, i) => (
            <li key={entry._id ?? `${entry.sourceText}#${i}`}>
              <EntryFacts entry={entry} />
              <Row>
                {entry.verificationStatus !== 'confirmed' && (
                  <Button type="button" disabled={busy} onClick={() => void setStatus(entry, 'confirmed')}>
                    Confirm
                  </Button>
                )}
                <Button type="button" $variant="secondary" disabled={busy} onClick={() => setEditing({ kind: 'edit', entry })}>
                  Edit
                </Button>
                {entry.verificationStatus !== 'refuted' && refuting?.entry !== entry && (
                  <Button type="button" $variant="danger" disabled={busy} onClick={() => setRefuting({ entry, reason: '' })}>
                    Refute (delabel)
                  </Button>
                )}
              </Row>
              {refuting?.entry === entry && (
                <form
                  aria-label={`Refute ${entry.substance.text}`}
                  onSubmit={(e) => {
                    e.preventDefault();
                    void setStatus(entry, 'refuted', refuting.reason.trim());
                  }}
                >
                  <TextField
                    label="Why is it refuted?"
                    value={refuting.reason}
                    onChange={(reason) => setRefuting({ entry, reason })}
                    required
                    maxLength={500}
                  />
                  <Row>
                    <Button type="submit" $variant="danger" disabled={busy || !refuting.reason.trim()}>
                      Refute
                    </Button>
                    <Button type="button" $variant="secondary" onClick={() => setRefuting(null)}>
                      Cancel
                    </Button>
                  </Row>
                </form>
              )}
            </li>
          ))}
        </Entries>
      )}
      {error && <Banner tone="error">{error}</Banner>}
      {editing ? (
        <AllergyForm
          key={editing.kind === 'edit' ? (editing.entry._id ?? editing.entry.sourceText) : 'add'}
          role="doctor"
          title={editing.kind === 'add' ? 'Add an allergy' : `Edit: ${editing.entry.substance.text}`}
          initial={editing.kind === 'add' ? { ...blank, verificationStatus: 'confirmed' } : valuesOf(editing.entry)}
          submitLabel="Save allergy"
          onSubmit={async (body) => {
            await save(editing.kind === 'edit' ? editing.entry : undefined, body);
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <Button type="button" onClick={() => setEditing({ kind: 'add' })}>
          Add an allergy
        </Button>
      )}
    </>
  );
}

/** The patient's view: every entry, status in words, and "Report an allergy". */
function PatientAllergies({ entries }: { entries: AllergyIntolerance[] }) {
  const report = useReportAllergy();
  const [reporting, setReporting] = useState(false);
  const [done, setDone] = useState(false);
  return (
    <>
      {entries.length > 0 && (
        <Entries aria-label="Allergy entries">
          {entries.map((entry, i) => (
            <li key={entry._id ?? `${entry.sourceText}#${i}`}>
              <EntryFacts entry={entry} />
            </li>
          ))}
        </Entries>
      )}
      {done && <Banner tone="success">Reported. It stays unconfirmed until your doctor reviews it.</Banner>}
      {reporting ? (
        <AllergyForm
          role="patient"
          title="Report an allergy"
          initial={blank}
          submitLabel="Send report"
          onSubmit={async (body) => {
            await report.mutateAsync({ ...body, verificationStatus: 'unconfirmed' });
            setReporting(false);
            setDone(true);
          }}
          onCancel={() => setReporting(false)}
        />
      ) : (
        <Button
          type="button"
          onClick={() => {
            setDone(false);
            setReporting(true);
          }}
        >
          Report an allergy
        </Button>
      )}
    </>
  );
}

/**
 * The allergy list on the records page: the patient's own, or (doctor) the one patient the page is
 * narrowed to; nothing for a doctor's list of every patient.
 */
export function Allergies({ role, patientId }: { role: Role; patientId?: string }) {
  if (role === 'patient') return <OwnAllergies />;
  return patientId ? <AllergyCard role="doctor" patientId={patientId} /> : null;
}

/** The patient's own list: their id from the profile query the patient's pages share. */
function OwnAllergies() {
  const profile = usePatientProfile();
  return <AllergyCard role="patient" patientId={profile.data?.patient._id} />;
}

function AllergyCard({ role, patientId }: { role: Role; patientId: string | undefined }) {
  const list = useAllergies(patientId);
  const headingId = useId();
  const entries = list.data?.items ?? [];
  const notes = list.data?.notes ?? [];
  const { formatDate } = useClinicTime();
  return (
    <Card aria-labelledby={headingId} style={{ margin: '1rem 0' }}>
      <h2 id={headingId} style={{ margin: '0 0 0.75rem', fontSize: '1.25rem' }}>
        Allergies
      </h2>
      {list.isError && <Banner tone="error">Could not load the allergies.</Banner>}
      {list.data && entries.length === 0 && notes.length === 0 && <EmptyState>No allergy recorded</EmptyState>}
      {patientId &&
        (role === 'doctor' ? (
          <DoctorAllergies patientId={patientId} entries={entries} />
        ) : (
          <PatientAllergies entries={entries} />
        ))}
      {notes.length > 0 && (
        <section aria-label="Allergy notes as written">
          <h3 style={{ fontSize: '1rem', margin: '0.5rem 0' }}>As written in records and prescriptions</h3>
          <Entries>
            {notes.map((n) => (
              <li key={n.text}>
                “{n.text}”{' '}
                <small>
                  — {sourceWords[n.source]}, {n.recordedBy || 'a doctor'}, {formatDate(n.recordedAt)}
                </small>
              </li>
            ))}
          </Entries>
        </section>
      )}
    </Card>
  );
}
