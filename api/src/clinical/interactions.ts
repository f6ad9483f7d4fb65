/*
 * Drug–drug interactions checked against the patient's active medications.
 *
 * Severity: "stop" for the 15 interactions of the ONC high-priority list, which its expert panel
 * judged contraindicated for concurrent use (Phansalkar S et al., High-priority drug–drug
 * interactions for use in electronic health records, J Am Med Inform Assoc 2012;19:735–43), and for
 * the pairs the BNF, the MHRA or the product's SmPC say are contraindicated or to be avoided
 * (PDE-5 inhibitors with nitrates, simvastatin with erythromycin, DOACs with azoles and HIV protease
 * inhibitors, …); "warning" for the other well-established pairs, which are managed by monitoring
 * or dose rather than never co-prescribed. Each pair cites its source.
 *
 * A pair is between two different ingredients (a drug never interacts with itself). A rule whose
 * two sides share a group (QT with QT, two anticoagulants) says so with `withinGroup`; otherwise
 * its sides never overlap (the vocabulary test checks it).
 */

export const ONC_2012 = 'Phansalkar S et al., J Am Med Inform Assoc 2012;19:735–43 (ONC high-priority drug–drug interactions)';
const BNF = 'BNF, Appendix 1: interactions (NICE)';
const MHRA = 'MHRA Drug Safety Update';
const SMPC = 'Summary of Product Characteristics (electronic medicines compendium)';
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
  // two groups, not one: a potassium-sparing diuretic with potassium is itself an interaction
  potassiumSparing: {
    name: 'a potassium-sparing diuretic',
    members: ['spironolactone', 'eplerenone', 'amiloride', 'triamterene'],
  },
  potassiumSupplements: { name: 'a potassium supplement', members: ['potassium chloride'] },
  trimethoprims: { name: 'trimethoprim', members: ['trimethoprim'] },
  pde5Inhibitors: { name: 'a PDE-5 inhibitor', members: ['sildenafil', 'tadalafil', 'vardenafil', 'avanafil'] },
  nitrates: {
    name: 'a nitrate or nitric-oxide donor',
    members: ['glyceryl trinitrate', 'isosorbide mononitrate', 'isosorbide dinitrate', 'nicorandil', 'amyl nitrite'],
  },
  azoles: {
    name: 'an azole antifungal',
    members: ['fluconazole', 'itraconazole', 'ketoconazole', 'voriconazole', 'posaconazole', 'miconazole'],
  },
  macrolides: { name: 'a macrolide (CYP3A4 inhibitor)', members: ['clarithromycin', 'erythromycin'] },
  moderateCyp3a4Inhibitors: { name: 'a moderate CYP3A4 inhibitor', members: ['fluconazole', 'miconazole'] },
  doacs: { name: 'a direct oral anticoagulant', members: ['apixaban', 'rivaroxaban', 'dabigatran', 'edoxaban'] },
  anticoagulants: {
    name: 'an anticoagulant',
    members: ['warfarin', 'apixaban', 'rivaroxaban', 'dabigatran', 'edoxaban'],
  },
  antiplatelets: { name: 'an antiplatelet', members: ['clopidogrel', 'prasugrel', 'ticagrelor'] },
  /** strong inhibitors of both CYP3A4 and P-glycoprotein (the DOAC SmPCs' list) */
  doacInhibitors: {
    name: 'a strong CYP3A4 and P-gp inhibitor',
    members: [
      'ketoconazole',
      'itraconazole',
      'posaconazole',
      'voriconazole',
      'ritonavir',
      'cobicistat',
      'atazanavir',
      'darunavir',
      'lopinavir',
      'saquinavir',
      'indinavir',
    ],
  },
  penicillins: {
    name: 'a penicillin',
    members: ['amoxicillin', 'ampicillin', 'benzylpenicillin', 'phenoxymethylpenicillin', 'flucloxacillin', 'piperacillin'],
  },
  thiazides: {
    name: 'a thiazide diuretic',
    members: ['bendroflumethiazide', 'hydrochlorothiazide', 'indapamide', 'chlortalidone'],
  },
  betaBlockers: {
    name: 'a beta-blocker',
    members: ['atenolol', 'bisoprolol', 'metoprolol', 'propranolol', 'carvedilol', 'nebivolol', 'sotalol'],
  },
  opioids: {
    name: 'an opioid',
    members: [
      'morphine',
      'codeine',
      'dihydrocodeine',
      'diamorphine',
      'oxycodone',
      'hydromorphone',
      'hydrocodone',
      'oxymorphone',
      'buprenorphine',
      'fentanyl',
      'alfentanil',
      'remifentanil',
      'sufentanil',
      'pethidine',
      'methadone',
      'tramadol',
      'tapentadol',
    ],
  },
  sedatives: {
    name: 'a benzodiazepine or Z-drug',
    members: [
      'diazepam',
      'lorazepam',
      'temazepam',
      'midazolam',
      'clonazepam',
      'alprazolam',
      'chlordiazepoxide',
      'zopiclone',
      'zolpidem',
    ],
  },
  gabapentinoids: { name: 'a gabapentinoid', members: ['gabapentin', 'pregabalin'] },
  theophyllines: { name: 'theophylline', members: ['theophylline', 'aminophylline'] },
  contrast: { name: 'iodinated contrast', members: ['iohexol', 'iodixanol', 'iopamidol'] },
};

export interface Interaction {
  id: string;
  /** group names (INTERACTION_GROUPS) or ingredient ids; the pair is symmetric */
  a: string[];
  b: string[];
  severity: 'stop' | 'warning';
  /** both sides are the same group on purpose: two different members interact (QT with QT) */
  withinGroup?: true;
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
    withinGroup: true,
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
    id: 'anticoagulant-nsaid',
    a: ['anticoagulants'],
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
    a: ['potassiumSparing', 'potassiumSupplements'],
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
  // ---- contraindicated or "avoid" in the BNF, MHRA or SmPC: stops
  {
    id: 'pde5-nitrate',
    a: ['pde5Inhibitors', 'riociguat'],
    b: ['nitrates'],
    severity: 'stop',
    effect: 'both raise cGMP: risk of profound, sometimes fatal hypotension',
    advice: 'Do not co-prescribe; no nitrate within 24 hours of sildenafil, vardenafil or avanafil (48 hours of tadalafil)',
    source: `${BNF}; ${SMPC} (contraindicated)`,
  },
  {
    id: 'pde5-riociguat',
    a: ['pde5Inhibitors'],
    b: ['riociguat'],
    severity: 'stop',
    effect: 'additive effect on the nitric oxide–cGMP pathway: risk of severe hypotension',
    advice: 'Do not co-prescribe',
    source: `${BNF}; ${SMPC} (riociguat, contraindicated)`,
  },
  {
    id: 'statin-erythromycin',
    a: ['cyp3a4Statins'],
    b: ['erythromycin'],
    severity: 'stop',
    effect: 'erythromycin raises simvastatin/lovastatin levels: risk of myopathy and rhabdomyolysis',
    advice: 'Do not co-prescribe; withhold the statin for the course of the antibiotic',
    source: `${BNF}; ${MHRA} (simvastatin: updated advice on drug interactions, 2012)`,
  },
  {
    id: 'doac-strong-inhibitor',
    a: ['doacs'],
    b: ['doacInhibitors'],
    severity: 'stop',
    effect: 'strong CYP3A4 and P-gp inhibition raises DOAC levels: risk of major bleeding',
    advice: 'Avoid; choose another anticoagulant or antifungal/antiretroviral',
    source: `${BNF}; ${SMPC} (apixaban, rivaroxaban, dabigatran, edoxaban)`,
  },
  {
    id: 'beta-blocker-verapamil',
    a: ['betaBlockers'],
    b: ['verapamil'],
    severity: 'stop',
    effect: 'additive negative inotropic and AV-nodal effects: risk of asystole, severe bradycardia and heart failure',
    advice: 'Avoid the combination (never IV verapamil with a beta-blocker); use a dihydropyridine such as amlodipine',
    source: BNF,
  },
  {
    id: 'colchicine-strong-inhibitor',
    a: ['colchicine'],
    b: ['strongCyp3a4Inhibitors'],
    severity: 'stop',
    effect: 'CYP3A4 and P-gp inhibition raises colchicine levels: fatal colchicine toxicity has been reported',
    advice: 'Avoid; withhold colchicine for the course of the inhibitor',
    source: `${BNF}; ${SMPC} (colchicine)`,
  },
  // ---- warnings
  {
    id: 'statin-moderate-cyp3a4-inhibitor',
    a: ['cyp3a4Statins'],
    b: ['moderateCyp3a4Inhibitors'],
    severity: 'warning',
    effect: 'raised simvastatin/lovastatin levels: risk of myopathy',
    advice: 'Withhold the statin during the course, or use the lowest dose and warn about muscle pain',
    source: BNF,
  },
  {
    id: 'atorvastatin-cyp3a4-inhibitor',
    a: ['atorvastatin'],
    b: ['azoles', 'macrolides', 'strongCyp3a4Inhibitors'],
    severity: 'warning',
    effect: 'raised atorvastatin levels: risk of myopathy',
    advice: 'Use the lowest atorvastatin dose (or withhold it during a short course) and warn about muscle pain',
    source: `${BNF}; ${SMPC} (atorvastatin)`,
  },
  {
    id: 'warfarin-azole',
    a: ['vitaminKAntagonists'],
    b: ['azoles'],
    severity: 'warning',
    effect: 'azoles inhibit warfarin metabolism (CYP2C9/3A4): INR rise and bleeding, including after miconazole oral gel',
    advice: 'Avoid if possible; otherwise check the INR within 3–5 days and adjust the warfarin dose',
    source: `${BNF}; ${MHRA} (miconazole oral gel and warfarin, 2016)`,
  },
  {
    id: 'warfarin-macrolide',
    a: ['vitaminKAntagonists'],
    b: ['macrolides'],
    severity: 'warning',
    effect: 'clarithromycin and erythromycin raise warfarin levels: INR rise and bleeding',
    advice: 'Check the INR within 3–5 days of starting and after stopping',
    source: BNF,
  },
  {
    id: 'warfarin-amiodarone',
    a: ['vitaminKAntagonists'],
    b: ['amiodarone'],
    severity: 'warning',
    effect: 'amiodarone inhibits warfarin metabolism for months: INR rise and bleeding',
    advice: 'Reduce the warfarin dose and check the INR weekly for the first weeks',
    source: BNF,
  },
  {
    id: 'anticoagulant-antiplatelet',
    a: ['anticoagulants'],
    b: ['antiplatelets'],
    severity: 'warning',
    effect: 'increased risk of bleeding',
    advice: 'Only with a clear indication and a planned duration; consider gastroprotection',
    source: `${BNF}; ${ONC_2012} (candidate list)`,
  },
  {
    id: 'anticoagulant-anticoagulant',
    a: ['anticoagulants'],
    b: ['anticoagulants'],
    withinGroup: true,
    severity: 'warning',
    effect: 'two anticoagulants together: high risk of bleeding',
    advice: 'Only while switching, following the product’s switching schedule; stop one otherwise',
    source: `${BNF}; ${SMPC}`,
  },
  {
    id: 'doac-inducer',
    a: ['doacs'],
    b: ['strongCyp3a4Inducers'],
    severity: 'warning',
    effect: 'strong inducers lower DOAC levels: risk of stroke or thrombosis',
    advice: 'Avoid; if unavoidable use another anticoagulant such as warfarin with INR monitoring',
    source: `${BNF}; ${SMPC}`,
  },
  {
    id: 'potassium-sparing-potassium',
    a: ['potassiumSparing'],
    b: ['potassiumSupplements'],
    severity: 'warning',
    effect: 'risk of severe hyperkalaemia',
    advice: 'Avoid potassium supplements unless hypokalaemia is proven; check potassium and renal function',
    source: BNF,
  },
  {
    id: 'methotrexate-nsaid',
    a: ['methotrexate'],
    b: ['nsaids'],
    severity: 'warning',
    effect: 'NSAIDs reduce methotrexate excretion: risk of methotrexate toxicity (marrow, renal, mucosal)',
    advice: 'Avoid with anti-cancer doses; with weekly low-dose methotrexate monitor blood counts and renal function',
    source: `${BNF}; ${MHRA} (methotrexate)`,
  },
  {
    id: 'methotrexate-penicillin',
    a: ['methotrexate'],
    b: ['penicillins'],
    severity: 'warning',
    effect: 'penicillins reduce methotrexate excretion: risk of methotrexate toxicity',
    advice: 'Monitor blood counts, or choose another antibiotic',
    source: BNF,
  },
  {
    id: 'lithium-nsaid-acei-arb-thiazide',
    a: ['lithium'],
    b: ['nsaids', 'aceInhibitors', 'arbs', 'thiazides'],
    severity: 'warning',
    effect: 'reduced lithium excretion: risk of lithium toxicity',
    advice: 'Avoid if possible; otherwise check the lithium level within a week and watch for toxicity',
    source: `${BNF}; NICE CG185 (bipolar disorder)`,
  },
  {
    id: 'digoxin-raisers',
    a: ['digoxin'],
    b: ['amiodarone', 'macrolides', 'verapamil'],
    severity: 'warning',
    effect: 'raised digoxin levels: risk of digoxin toxicity (bradycardia, arrhythmia, nausea)',
    advice: 'Halve the digoxin dose with amiodarone; check the digoxin level and heart rate',
    source: BNF,
  },
  {
    id: 'clopidogrel-ppi',
    a: ['clopidogrel'],
    b: ['omeprazole', 'esomeprazole'],
    severity: 'warning',
    effect: 'CYP2C19 inhibition reduces activation of clopidogrel: less antiplatelet effect',
    advice: 'Use another PPI (lansoprazole or pantoprazole)',
    source: `${MHRA} (clopidogrel and proton pump inhibitors, 2010); ${BNF}`,
  },
  {
    id: 'thiopurine-allopurinol',
    a: ['thiopurines'],
    b: ['allopurinol'],
    severity: 'warning',
    effect: 'allopurinol blocks thiopurine breakdown: risk of severe bone-marrow toxicity',
    advice: 'Reduce the azathioprine or mercaptopurine dose to a quarter and monitor blood counts',
    source: BNF,
  },
  {
    id: 'beta-blocker-diltiazem',
    a: ['betaBlockers'],
    b: ['diltiazem'],
    severity: 'warning',
    effect: 'additive AV-nodal effects: risk of bradycardia and heart block',
    advice: 'Monitor heart rate and ECG; avoid in left ventricular dysfunction or AV block',
    source: BNF,
  },
  {
    id: 'theophylline-inhibitor',
    a: ['theophyllines'],
    b: ['cyp1a2Inhibitors', 'macrolides'],
    severity: 'warning',
    effect: 'raised theophylline levels: risk of seizures and arrhythmias',
    advice: 'Reduce the theophylline dose or choose another antibiotic; check the theophylline level',
    source: BNF,
  },
  {
    id: 'ssri-nsaid-anticoagulant',
    a: ['ssris'],
    b: ['nsaids', 'anticoagulants'],
    severity: 'warning',
    effect: 'SSRIs impair platelet function: increased risk of bleeding, especially gastrointestinal',
    advice: 'Consider gastroprotection with an NSAID; watch for bleeding',
    source: `${BNF}; NICE CKS (depression: SSRIs and bleeding)`,
  },
  {
    id: 'opioid-sedative',
    a: ['opioids'],
    b: ['sedatives', 'gabapentinoids'],
    severity: 'warning',
    effect: 'additive CNS depression: risk of respiratory depression, profound sedation and death',
    advice: 'Only if no alternative: lowest doses, shortest time, and warn the patient and carers',
    source: `${MHRA} (benzodiazepines and opioids, 2020; gabapentinoids and opioids, 2019); FDA boxed warning 2016`,
  },
  {
    id: 'metformin-contrast',
    a: ['metformin'],
    b: ['contrast'],
    severity: 'warning',
    effect: 'contrast-induced kidney injury can lead to metformin accumulation and lactic acidosis',
    advice: 'Check eGFR; withhold metformin for 48 hours after contrast if eGFR < 30 or acute kidney injury',
    source: 'Royal College of Radiologists, Standards for intravascular contrast administration (2015); BNF',
  },
  {
    id: 'simvastatin-amiodarone',
    a: ['cyp3a4Statins'],
    b: ['amiodarone', 'verapamil', 'diltiazem'],
    severity: 'warning',
    effect: 'raised simvastatin levels: risk of myopathy',
    advice: 'Do not exceed simvastatin 20 mg daily (amiodarone, verapamil, diltiazem), or use another statin',
    source: `${MHRA} (simvastatin: updated advice on drug interactions, 2012)`,
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

/**
 * The interactions between two different ingredients (either order), most severe first. A rule
 * whose sides share a group applies to two members of it only when it says `withinGroup`.
 */
export function interactionsBetween(x: string, y: string): Interaction[] {
  if (x === y) return [];
  const kx = interactionKeys(x);
  const ky = interactionKeys(y);
  const meets = (as: string[], bs: string[]) => as.some((k) => kx.includes(k)) && bs.some((k) => ky.includes(k));
  return INTERACTIONS.filter((i) => meets(i.a, i.b) || meets(i.b, i.a)).sort(
    (p, q) => (p.severity === 'stop' ? 0 : 1) - (q.severity === 'stop' ? 0 : 1),
  );
}

/** The ingredients a side of a rule reaches. */
export const membersOf = (side: string[]): string[] => [...new Set(side.flatMap((k) => INTERACTION_GROUPS[k]?.members ?? [k]))];

/** How an interaction group (or an ingredient) reads in a message. */
export const groupName = (key: string): string => INTERACTION_GROUPS[key]?.name ?? key;
