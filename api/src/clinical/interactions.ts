/*
 * Drug–drug interactions checked against the patient's active medications.
 *
 * Severity: "stop" for the 15 interactions of the ONC high-priority list, which its expert panel
 * judged contraindicated for concurrent use (Phansalkar S et al., High-priority drug–drug
 * interactions for use in electronic health records, J Am Med Inform Assoc 2012;19:735–43);
 * "warning" for the other well-established pairs here, which are managed by monitoring or dose
 * rather than never co-prescribed (BNF interactions appendix; each pair cites its source).
 */

export const ONC_2012 = 'Phansalkar S et al., J Am Med Inform Assoc 2012;19:735–43 (ONC high-priority drug–drug interactions)';
const BNF = 'BNF, Appendix 1: interactions (NICE)';
const CREDIBLEMEDS = 'CredibleMeds QTdrugs list, known risk of torsades de pointes (Woosley RL et al., crediblemeds.org)';

/** Interaction groups: ingredient ids (vocabulary/ingredients.ts). */
export const INTERACTION_GROUPS: Record<string, { name: string; members: string[] }> = {
  maois: {
    name: 'an MAO inhibitor',
    members: [
      'phenelzine',
      'tranylcypromine',
      'isocarboxazid',
      'moclobemide',
      'selegiline',
      'rasagiline',
      'linezolid',
      'methylthioninium chloride',
    ],
  },
  ssris: {
    name: 'an SSRI or SNRI',
    members: ['fluoxetine', 'citalopram', 'paroxetine', 'sertraline', 'fluvoxamine', 'escitalopram', 'venlafaxine', 'duloxetine'],
  },
  tcas: { name: 'a tricyclic antidepressant', members: ['amitriptyline', 'nortriptyline', 'imipramine', 'clomipramine'] },
  serotonergicOpioids: {
    name: 'a serotonergic opioid',
    members: ['pethidine', 'tramadol', 'methadone', 'fentanyl', 'tapentadol', 'dextromethorphan'],
  },
  triptans: { name: 'a triptan', members: ['sumatriptan', 'zolmitriptan', 'rizatriptan'] },
  amphetamines: {
    name: 'an amphetamine-type stimulant',
    members: ['amfetamine', 'dexamfetamine', 'lisdexamfetamine', 'methylphenidate'],
  },
  ppis: {
    name: 'a proton pump inhibitor',
    members: ['omeprazole', 'esomeprazole', 'lansoprazole', 'pantoprazole', 'rabeprazole'],
  },
  proteaseInhibitors: {
    name: 'an HIV protease inhibitor',
    members: ['atazanavir', 'ritonavir', 'darunavir', 'lopinavir', 'saquinavir', 'indinavir'],
  },
  strongCyp3a4Inhibitors: {
    name: 'a strong CYP3A4 inhibitor',
    members: [
      'ketoconazole',
      'itraconazole',
      'posaconazole',
      'voriconazole',
      'clarithromycin',
      'cobicistat',
      'ritonavir',
      'atazanavir',
      'darunavir',
      'lopinavir',
      'saquinavir',
      'indinavir',
    ],
  },
  strongCyp3a4Inducers: {
    name: 'a strong CYP3A4 inducer',
    members: ['rifampicin', 'carbamazepine', 'phenytoin', 'st john s wort'],
  },
  cyp3a4Statins: { name: 'a CYP3A4-metabolised statin', members: ['simvastatin', 'lovastatin'] },
  ergots: { name: 'an ergot alkaloid', members: ['ergotamine', 'dihydroergotamine', 'methylergometrine'] },
  cyp1a2Inhibitors: { name: 'a strong CYP1A2 inhibitor', members: ['fluvoxamine', 'ciprofloxacin'] },
  thiopurines: { name: 'a thiopurine', members: ['azathioprine', 'mercaptopurine'] },
  qt: {
    name: 'a QT-prolonging drug',
    members: [
      'amiodarone',
      'sotalol',
      'dofetilide',
      'quinidine',
      'flecainide',
      'haloperidol',
      'droperidol',
      'chlorpromazine',
      'pimozide',
      'citalopram',
      'escitalopram',
      'methadone',
      'ondansetron',
      'domperidone',
      'erythromycin',
      'clarithromycin',
      'azithromycin',
      'levofloxacin',
      'moxifloxacin',
      'ciprofloxacin',
      'fluconazole',
      'hydroxychloroquine',
    ],
  },
  nsaids: {
    name: 'an NSAID',
    members: [
      'aspirin',
      'ibuprofen',
      'naproxen',
      'ketoprofen',
      'diclofenac',
      'ketorolac',
      'indometacin',
      'meloxicam',
      'piroxicam',
      'mefenamic acid',
      'celecoxib',
      'etoricoxib',
    ],
  },
  vitaminKAntagonists: { name: 'warfarin', members: ['warfarin'] },
  aceInhibitors: { name: 'an ACE inhibitor', members: ['ramipril', 'lisinopril', 'enalapril', 'perindopril', 'captopril'] },
  arbs: { name: 'an angiotensin receptor blocker', members: ['losartan', 'valsartan', 'irbesartan', 'candesartan'] },
  potassiumRaising: {
    name: 'a potassium-sparing diuretic or potassium',
    members: ['spironolactone', 'eplerenone', 'amiloride', 'triamterene', 'potassium chloride'],
  },
  trimethoprims: { name: 'trimethoprim', members: ['trimethoprim'] },
};

export interface Interaction {
  id: string;
  /** group names (INTERACTION_GROUPS) or ingredient ids; the pair is symmetric */
  a: string[];
  b: string[];
  severity: 'stop' | 'warning';
  /** "…: <effect>. <advice>" */
  effect: string;
  advice: string;
  source: string;
}

export const INTERACTIONS: Interaction[] = [
  // ---- the ONC high-priority list (Phansalkar 2012, table 2): contraindicated together
  {
    id: 'atazanavir-ppi',
    a: ['atazanavir'],
    b: ['ppis'],
    severity: 'stop',
    effect: 'proton pump inhibitors markedly lower atazanavir absorption, risking loss of virological control',
    advice: 'Do not co-prescribe; use an alternative acid suppressant strategy per HIV guidance',
    source: ONC_2012,
  },
  {
    id: 'amphetamine-maoi',
    a: ['amphetamines'],
    b: ['maois'],
    severity: 'stop',
    effect: 'risk of hypertensive crisis',
    advice: 'Do not co-prescribe, nor within 14 days of stopping an MAO inhibitor',
    source: ONC_2012,
  },
  {
    id: 'thiopurine-febuxostat',
    a: ['thiopurines'],
    b: ['febuxostat'],
    severity: 'stop',
    effect: 'febuxostat blocks xanthine oxidase, raising thiopurine levels: risk of severe bone-marrow toxicity',
    advice: 'Do not co-prescribe',
    source: ONC_2012,
  },
  {
    id: 'ssri-maoi',
    a: ['ssris'],
    b: ['maois'],
    severity: 'stop',
    effect: 'risk of serotonin syndrome',
    advice: 'Do not co-prescribe; observe the washout period (14 days after an MAO inhibitor; 5 weeks after fluoxetine)',
    source: ONC_2012,
  },
  {
    id: 'irinotecan-cyp3a4-inhibitor',
    a: ['irinotecan'],
    b: ['strongCyp3a4Inhibitors'],
    severity: 'stop',
    effect: 'raised SN-38 exposure: risk of severe neutropenia and diarrhoea',
    advice: 'Do not co-prescribe; stop the inhibitor at least a week before irinotecan',
    source: ONC_2012,
  },
  {
    id: 'opioid-maoi',
    a: ['serotonergicOpioids'],
    b: ['maois'],
    severity: 'stop',
    effect: 'risk of serotonin syndrome or opioid toxicity',
    advice: 'Do not co-prescribe, nor within 14 days of stopping an MAO inhibitor',
    source: ONC_2012,
  },
  {
    id: 'tca-maoi',
    a: ['tcas'],
    b: ['maois'],
    severity: 'stop',
    effect: 'risk of serotonin syndrome and hypertensive reactions',
    advice: 'Do not co-prescribe, nor within 14 days of stopping an MAO inhibitor',
    source: ONC_2012,
  },
  {
    id: 'qt-qt',
    a: ['qt'],
    b: ['qt'],
    severity: 'stop',
    effect: 'two drugs with a known risk of QT prolongation: risk of torsades de pointes',
    advice: 'Avoid the combination; if unavoidable, check the ECG (QTc) and potassium and magnesium first',
    source: `${ONC_2012}; ${CREDIBLEMEDS}`,
  },
  {
    id: 'ramelteon-cyp1a2-inhibitor',
    a: ['ramelteon'],
    b: ['cyp1a2Inhibitors'],
    severity: 'stop',
    effect: 'strong CYP1A2 inhibitors (fluvoxamine, ciprofloxacin) raise ramelteon exposure many-fold',
    advice: 'Do not co-prescribe',
    source: ONC_2012,
  },
  {
    id: 'protease-inhibitor-cyp3a4-inducer',
    a: ['proteaseInhibitors'],
    b: ['strongCyp3a4Inducers'],
    severity: 'stop',
    effect: 'strong inducers lower protease-inhibitor levels: risk of virological failure and resistance',
    advice: 'Do not co-prescribe',
    source: ONC_2012,
  },
  {
    id: 'statin-cyp3a4-inhibitor',
    a: ['cyp3a4Statins'],
    b: ['strongCyp3a4Inhibitors'],
    severity: 'stop',
    effect: 'raised simvastatin/lovastatin levels: risk of myopathy and rhabdomyolysis',
    advice: 'Do not co-prescribe; withhold the statin or use one not metabolised by CYP3A4',
    source: ONC_2012,
  },
  {
    id: 'ergot-cyp3a4-inhibitor',
    a: ['ergots'],
    b: ['strongCyp3a4Inhibitors'],
    severity: 'stop',
    effect: 'raised ergot levels: risk of ergotism and severe peripheral ischaemia',
    advice: 'Do not co-prescribe',
    source: ONC_2012,
  },
  {
    id: 'tizanidine-cyp1a2-inhibitor',
    a: ['tizanidine'],
    b: ['cyp1a2Inhibitors'],
    severity: 'stop',
    effect: 'tizanidine levels rise many-fold: risk of severe hypotension and sedation',
    advice: 'Do not co-prescribe',
    source: ONC_2012,
  },
  {
    id: 'tranylcypromine-procarbazine',
    a: ['tranylcypromine'],
    b: ['procarbazine'],
    severity: 'stop',
    effect: 'procarbazine is itself a weak MAO inhibitor: risk of hypertensive crisis',
    advice: 'Do not co-prescribe',
    source: ONC_2012,
  },
  {
    id: 'triptan-maoi',
    a: ['triptans'],
    b: ['maois'],
    severity: 'stop',
    effect: 'MAO-A inhibition raises triptan levels: risk of serotonin syndrome',
    advice: 'Do not co-prescribe, nor within 14 days of stopping an MAO inhibitor',
    source: ONC_2012,
  },
  // ---- other well-established pairs: warnings
  {
    id: 'warfarin-nsaid',
    a: ['vitaminKAntagonists'],
    b: ['nsaids'],
    severity: 'warning',
    effect: 'increased risk of bleeding, especially gastrointestinal (antiplatelet effect and gastric injury)',
    advice: 'Avoid if possible; if needed, use the lowest dose for the shortest time with gastroprotection and INR monitoring',
    source: `${BNF}; Battistella M et al., Arch Intern Med 2005;165:189–92`,
  },
  {
    id: 'methotrexate-trimethoprim',
    a: ['methotrexate'],
    b: ['trimethoprims'],
    severity: 'warning',
    effect: 'trimethoprim adds antifolate effect and lowers methotrexate clearance: risk of pancytopenia',
    advice: 'Avoid the combination; choose another antibiotic',
    source: `${BNF}; MHRA Drug Safety Update (methotrexate)`,
  },
  {
    id: 'potassium-acei-arb',
    a: ['potassiumRaising'],
    b: ['aceInhibitors', 'arbs'],
    severity: 'warning',
    effect: 'risk of hyperkalaemia',
    advice: 'Check potassium and renal function before and within a week of starting, then regularly',
    source: `${BNF}; Juurlink DN et al., N Engl J Med 2004;351:543–51`,
  },
  {
    id: 'trimethoprim-acei-arb',
    a: ['trimethoprims'],
    b: ['aceInhibitors', 'arbs'],
    severity: 'warning',
    effect: 'trimethoprim blocks renal potassium excretion: risk of hyperkalaemia',
    advice: 'Check potassium, especially in older patients or with renal impairment',
    source: BNF,
  },
  {
    id: 'ssri-serotonergic-opioid',
    a: ['ssris'],
    b: ['serotonergicOpioids', 'triptans'],
    severity: 'warning',
    effect: 'risk of serotonin syndrome',
    advice: 'Use the lowest effective doses and watch for agitation, tremor, clonus and hyperthermia',
    source: BNF,
  },
  {
    id: 'warfarin-cotrimoxazole',
    a: ['vitaminKAntagonists'],
    b: ['sulfamethoxazole'],
    severity: 'warning',
    effect: 'sulfamethoxazole raises warfarin levels: risk of bleeding (INR rise)',
    advice: 'Prefer another antibiotic; otherwise check the INR within 3–5 days',
    source: BNF,
  },
];

/** The group names and ingredient ids an ingredient answers to in the table above. */
export function interactionKeys(ingredient: string): string[] {
  return [
    ingredient,
    ...Object.entries(INTERACTION_GROUPS)
      .filter(([, g]) => g.members.includes(ingredient))
      .map(([k]) => k),
  ];
}

/** The interactions between two ingredients (either order), most severe first. */
export function interactionsBetween(x: string, y: string): Interaction[] {
  if (x === y) return [];
  const kx = interactionKeys(x);
  const ky = interactionKeys(y);
  const meets = (as: string[], bs: string[]) => as.some((k) => kx.includes(k)) && bs.some((k) => ky.includes(k));
  return INTERACTIONS.filter((i) => meets(i.a, i.b) || meets(i.b, i.a)).sort(
    (p, q) => (p.severity === 'stop' ? 0 : 1) - (q.severity === 'stop' ? 0 : 1),
  );
}

/** How an interaction group (or an ingredient) reads in a message. */
export const groupName = (key: string): string => INTERACTION_GROUPS[key]?.name ?? key;
