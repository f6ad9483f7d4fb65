import type {
  AllergyIntolerance,
  Bundle,
  CodeableConcept,
  Composition,
  DetectedIssue,
  DocumentReference,
  Encounter,
  HumanName,
  MedicationRequest,
  Observation,
  Patient,
  Practitioner,
  Quantity,
  Resource,
  RiskAssessment,
} from '@medplum/fhirtypes';
import { formatDate, formatDateTime, timeZoneNote, vitalSigns } from '@careloop/shared-contracts';
import { ACUITY_TEXT } from '../../clinical';

/**
 * The health record for people: the lines of the PDF, built from the same `$everything` Bundle
 * the FHIR download saves. Pure (no pdfkit, no db): the PDF's content is tested here, since
 * pdfkit compresses what it writes.
 */
export type RecordLine =
  | { kind: 'title' | 'heading' | 'subheading' | 'text' | 'note'; text: string }
  /** a label and its value on one line ("Pulse: 72 /min") */
  | { kind: 'fact'; label: string; text: string };

export const NOT_MEASURED = 'not measured';

const LOINC = 'http://loinc.org';

/**
 * The declared vital signs with an Observation (shared-contracts VITAL_SIGNS), in the declared
 * order: each one's label, its LOINC codes, and the codes of its components (a blood pressure's
 * systolic and diastolic, read as "128/84").
 */
const vitalSignRows = () =>
  vitalSigns()
    .filter((v) => v.loinc?.length)
    .map((v) => ({
      label: v.label,
      codes: (v.loinc ?? []).map((l) => l.code),
      parts: v.kind === 'blood-pressure' ? v.components.map((c) => c.loinc.code) : [],
    }));

const resourcesOf = <T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] =>
  (bundle.entry ?? []).map((e) => e.resource).filter((r): r is T => r?.resourceType === type);

const codesOf = (c: CodeableConcept | undefined) => (c?.coding ?? []).filter((x) => x.system === LOINC).map((x) => x.code);
const conceptText = (c: CodeableConcept | undefined) =>
  c?.text ?? c?.coding?.find((x) => x.display)?.display ?? c?.coding?.[0]?.code;

export function nameText(names: HumanName[] | undefined): string {
  const n = names?.find((x) => x.use === 'official') ?? names?.[0];
  if (!n) return '';
  return n.text ?? [...(n.given ?? []), n.family].filter(Boolean).join(' ');
}

/** "72 /min": the value as recorded, with its human unit (else its UCUM code). */
export function quantityText(q: Quantity | undefined): string | undefined {
  if (q?.value === undefined) return undefined;
  const unit = q.unit ?? q.code;
  return unit ? `${q.value} ${unit}` : String(q.value);
}

/** An Observation's value as people read it; `parts`: the component codes a value is made of ("128/84 mmHg"). */
function observationValue(o: Observation, parts: string[] = []): string | undefined {
  const values = parts.map((code) => o.component?.find((c) => codesOf(c.code).includes(code))?.valueQuantity);
  if (values.length && values.every((q) => q?.value !== undefined)) {
    return `${values.map((q) => q!.value).join('/')} ${values[0]!.unit ?? values[0]!.code ?? ''}`.trim();
  }
  if (o.valueQuantity) return quantityText(o.valueQuantity);
  if (o.valueInteger !== undefined) return String(o.valueInteger);
  return o.valueString ?? conceptText(o.valueCodeableConcept);
}

const isVitalSign = (o: Observation) => vitalSignRows().some((v) => v.codes.some((c) => codesOf(o.code).includes(c)));
const isNews2 = (o: Observation) => !isVitalSign(o) && /NEWS\s*2/i.test(`${conceptText(o.code) ?? ''} ${o.code.text ?? ''}`);

/** `Encounter/abc` → `abc` (also a full URL ending in Encounter/abc). */
const idOf = (reference: string | undefined, type: string) => {
  const m = reference?.match(new RegExp(`(?:^|/)${type}/([^/]+)$`));
  return m?.[1];
};

/**
 * A record summary's Markdown (only "## " headings and **bold**) as plain lines: headings become
 * sub-headings, bold markers go. Never rendered as markup.
 */
export function summaryLines(markdown: string): RecordLine[] {
  const lines: RecordLine[] = [];
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.replace(/\*\*(.+?)\*\*/g, '$1').trimEnd();
    if (line.startsWith('## ')) lines.push({ kind: 'subheading', text: line.slice(3).trim() });
    else if (line.trim()) lines.push({ kind: 'text', text: line });
  }
  return lines;
}

/** XHTML narrative → plain text lines (block elements break lines; entities decoded; no markup kept). */
export function narrativeText(div: string): string {
  return div
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<h2[^>]*>/gi, '## ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** The summary of a Composition: its sections' narrative as text (the Markdown lines it was made of). */
function compositionSummary(c: Composition): string {
  const texts = (c.section ?? []).map((s) => (s.text?.div ? narrativeText(s.text.div) : ''));
  if (texts.some((t) => t.trim())) return texts.join('\n');
  return c.text?.div ? narrativeText(c.text.div) : '';
}

/**
 * A record's assessment as the PDF shows it, read from its RiskAssessment (the one stored, current
 * assessment: hazard H26): the acuity in words (its first prediction's, the findings being most
 * urgent first; "No alert" without one), the reasons (the findings that raise an alert) and the
 * caveats. Never the raw assessment.
 */
export function assessmentLines(a: RiskAssessment): RecordLine[] {
  const predictions = a.prediction ?? [];
  const acuity = predictions[0]?.qualitativeRisk?.text ?? ACUITY_TEXT.none;
  return [
    { kind: 'text', text: 'Assessment' },
    { kind: 'fact', label: 'Acuity', text: acuity },
    ...predictions
      .filter((p) => p.qualitativeRisk?.text !== ACUITY_TEXT.none && p.outcome?.text)
      .map((p): RecordLine => ({ kind: 'text', text: p.outcome!.text! })),
    ...(a.note ?? []).map((n): RecordLine => ({ kind: 'note', text: `Caution: ${n.text}` })),
  ];
}

/** The one date format: a FHIR date "12 Mar 1985" as written, an instant "27 Nov 2026, 19:30" in the clinic's zone. */
const dateOf = (iso: string | undefined, timeZone: string) => (iso ? formatDateTime(iso, timeZone) : '—');

export interface RecordLinesOptions {
  generatedAt: Date;
  /** the clinic's IANA time zone (CLINIC_TIME_ZONE): every time shown, and the generated-at line */
  timeZone: string;
}

export function healthRecordLines(bundle: Bundle, opts: RecordLinesOptions): RecordLine[] {
  const { timeZone } = opts;
  // every time below is the clinic's, its zone named once
  const lines: RecordLine[] = [
    { kind: 'title', text: 'CareLoop health record' },
    { kind: 'note', text: timeZoneNote(timeZone) },
  ];
  const fact = (label: string, text: string | undefined) => lines.push({ kind: 'fact', label, text: text || '—' });

  const patient = resourcesOf<Patient>(bundle, 'Patient')[0];
  lines.push({ kind: 'heading', text: 'Patient' });
  if (patient) {
    fact('Name', nameText(patient.name));
    fact('Date of birth', patient.birthDate && formatDate(patient.birthDate));
    fact('Gender', patient.gender);
    fact('E-mail', patient.telecom?.find((t) => t.system === 'email')?.value);
    const address = patient.address?.[0];
    if (address)
      fact(
        'Address',
        address.text ?? [...(address.line ?? []), address.city, address.state, address.postalCode].filter(Boolean).join(', '),
      );
  }

  const allergies = resourcesOf<AllergyIntolerance>(bundle, 'AllergyIntolerance');
  lines.push({ kind: 'heading', text: 'Allergies' });
  if (allergies.length === 0) lines.push({ kind: 'note', text: 'No allergy recorded' });
  // An entry read from a free-text note carries the note as written: each note is printed once,
  // before the first entry read from it (a long note is not repeated for every substance it names).
  const printedNotes = new Set<string>();
  for (const a of allergies) {
    const status = [conceptText(a.clinicalStatus), conceptText(a.verificationStatus)].filter(Boolean).join(', ');
    const reactions = (a.reaction ?? []).flatMap((r) => r.manifestation.map(conceptText)).filter(Boolean);
    const notes = (a.note ?? []).map((n) => n.text).filter((n) => !printedNotes.has(n));
    for (const n of notes) {
      printedNotes.add(n);
      lines.push({ kind: 'note', text: n });
    }
    const details = [
      status && `status: ${status}`,
      a.criticality && `criticality: ${a.criticality}`,
      reactions.length && `reaction: ${reactions.join(', ')}`,
    ]
      .filter(Boolean)
      .join('; ');
    lines.push({ kind: 'text', text: `${conceptText(a.code) ?? 'Allergy'}${details ? ` (${details})` : ''}` });
  }

  const practitioners = new Map(resourcesOf<Practitioner>(bundle, 'Practitioner').map((p) => [p.id, nameText(p.name)]));
  const observations = resourcesOf<Observation>(bundle, 'Observation');
  const compositions = resourcesOf<Composition>(bundle, 'Composition');
  const assessments = resourcesOf<RiskAssessment>(bundle, 'RiskAssessment');
  const encounters = resourcesOf<Encounter>(bundle, 'Encounter').sort((a, b) =>
    (b.period?.start ?? '').localeCompare(a.period?.start ?? ''),
  );
  lines.push({ kind: 'heading', text: 'Medical records' });
  if (encounters.length === 0) lines.push({ kind: 'note', text: 'No medical record found' });
  for (const e of encounters) {
    const title = conceptText(e.type?.[0]) ?? conceptText(e.reasonCode?.[0]) ?? 'Medical record';
    lines.push({ kind: 'subheading', text: `${title} — ${dateOf(e.period?.start, timeZone)}` });
    const doctorRef = e.participant?.find((p) => p.individual)?.individual;
    fact('Doctor', practitioners.get(idOf(doctorRef?.reference, 'Practitioner')) || doctorRef?.display);
    const admission = e.hospitalization?.admitSource;
    if (admission) fact('Mode of admission', conceptText(admission));

    const own = observations.filter((o) => idOf(o.encounter?.reference, 'Encounter') === e.id);
    lines.push({ kind: 'text', text: 'Vital signs' });
    for (const v of vitalSignRows()) {
      const o = own.find((x) => v.codes.some((c) => codesOf(x.code).includes(c)));
      fact(v.label, (o && observationValue(o, v.parts)) ?? NOT_MEASURED);
    }
    const news2 = own.find(isNews2);
    const news2Value = news2 && observationValue(news2);
    // a partial score says which parameters it lacks (its note)
    const news2Notes = news2 ? [...(news2.interpretation ?? []).map(conceptText), ...(news2.note ?? []).map((n) => n.text)] : [];
    fact('NEWS2', news2Value ? [news2Value, ...news2Notes].filter(Boolean).join(' — ') : 'not scored');

    const assessment = assessments.find((a) => idOf(a.encounter?.reference, 'Encounter') === e.id);
    if (assessment) lines.push(...assessmentLines(assessment));

    const summary = compositions.find((c) => idOf(c.encounter?.reference, 'Encounter') === e.id);
    const summaryText = summary ? compositionSummary(summary) : '';
    if (summaryText.trim()) {
      lines.push({ kind: 'text', text: 'Summary' });
      lines.push(...summaryLines(summaryText));
    }
  }

  const prescriptions = resourcesOf<MedicationRequest>(bundle, 'MedicationRequest');
  lines.push({ kind: 'heading', text: 'Prescriptions' });
  if (prescriptions.length === 0) lines.push({ kind: 'note', text: 'No prescription found' });
  for (const m of prescriptions) {
    const drug = conceptText(m.medicationCodeableConcept) ?? m.medicationReference?.display ?? 'Medication';
    lines.push({ kind: 'subheading', text: `${drug} — ${dateOf(m.authoredOn, timeZone)}` });
    const prescriber = practitioners.get(idOf(m.requester?.reference, 'Practitioner')) || m.requester?.display;
    if (prescriber) fact('Prescribed by', prescriber);
    for (const d of m.dosageInstruction ?? []) if (d.text) lines.push({ kind: 'text', text: d.text });
    const lastDay = m.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod?.end;
    const course =
      m.courseOfTherapyType?.coding?.[0]?.code === 'continuous'
        ? 'long-term'
        : lastDay
          ? `until ${dateOf(lastDay, timeZone)}`
          : '';
    fact('Status', [m.status, course, m.statusReason?.text ? `reason: ${m.statusReason.text}` : ''].filter(Boolean).join(' · '));
    for (const issue of (m.contained ?? []).filter((r): r is DetectedIssue => r.resourceType === 'DetectedIssue')) {
      const mitigation = issue.mitigation?.[0];
      const by = mitigation?.author?.display ? ` by ${mitigation.author.display}` : '';
      fact(
        'Alert overridden',
        `${issue.detail ?? ''} — ${mitigation?.action.text ?? ''}${by} (${dateOf(mitigation?.date, timeZone)})`,
      );
    }
    for (const n of m.note ?? []) lines.push({ kind: 'text', text: n.text });
  }

  const files = resourcesOf<DocumentReference>(bundle, 'DocumentReference');
  lines.push({ kind: 'heading', text: 'Files' });
  if (files.length === 0) lines.push({ kind: 'note', text: 'No file uploaded' });
  for (const f of files) {
    // names and dates only: a signed URL in a PDF would outlive its purpose
    const attachment = f.content[0]?.attachment;
    lines.push({
      kind: 'text',
      text: `${attachment?.title ?? f.description ?? 'File'} — ${dateOf(f.date ?? attachment?.creation, timeZone)}`,
    });
  }

  lines.push({ kind: 'note', text: `Generated ${formatDateTime(opts.generatedAt, timeZone)}` });
  return lines;
}
