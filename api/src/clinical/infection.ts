/*
 * Words that make an infection possible, for the sepsis screen's "could this be an infection?"
 * (NICE NG51 1.1.1: think sepsis in anyone with signs or symptoms of infection). Grouped by the
 * source of infection NG51 §1.2 asks the assessor to look for, plus the systemic signs. Maintained
 * here, beside the rule: add a source to its group. Matching is whole words after lower-casing;
 * a trailing "s" is accepted. A negated mention ("no fever") still counts — the screen errs
 * towards screening (api/CLINICAL.md).
 */
export const INFECTION_SOURCES: Record<string, readonly string[]> = {
  systemic: [
    'infection',
    'infected',
    'infective',
    'sepsis',
    'septic',
    'septicaemia',
    'septicemia',
    'bacteraemia',
    'bacteremia',
    'fever',
    'febrile',
    'pyrexia',
    'pyrexial',
    'rigor',
    'rigors',
    'chills',
    'neutropenic sepsis',
    'febrile neutropenia',
    'sweats',
    'night sweats',
  ],
  respiratory: [
    'pneumonia',
    'chest infection',
    'lrti',
    'urti',
    'lower respiratory tract infection',
    'bronchitis',
    'bronchiolitis',
    'empyema',
    'consolidation',
    'productive cough',
    'cough',
    'sputum',
    'purulent sputum',
    'influenza',
    'flu',
    'covid',
    'covid-19',
    'sars-cov-2',
    'tuberculosis',
    'tb',
    'aspiration',
    'lung abscess',
    'pharyngitis',
    'tonsillitis',
    'quinsy',
    'epiglottitis',
    'sinusitis',
    'otitis',
    'mastoiditis',
  ],
  urinary: [
    'uti',
    'urinary tract infection',
    'urinary infection',
    'urosepsis',
    'pyelonephritis',
    'cystitis',
    'dysuria',
    'prostatitis',
    'epididymitis',
    'orchitis',
    'catheter infection',
    'cauti',
    'nitrites',
  ],
  abdominal: [
    'cholangitis',
    'cholecystitis',
    'appendicitis',
    'diverticulitis',
    'peritonitis',
    'intra-abdominal abscess',
    'liver abscess',
    'gastroenteritis',
    'colitis',
    'c diff',
    'c. diff',
    'clostridioides',
    'clostridium difficile',
    'perforation',
    'spontaneous bacterial peritonitis',
    'sbp',
  ],
  skin: [
    'cellulitis',
    'abscess',
    'wound infection',
    'infected wound',
    'wound',
    'necrotising fasciitis',
    'necrotizing fasciitis',
    'erysipelas',
    'impetigo',
    'infected ulcer',
    'diabetic foot infection',
    'pus',
    'purulent',
    'bite',
    'burns',
  ],
  neurological: ['meningitis', 'encephalitis', 'meningococcal', 'non-blanching rash', 'petechial rash', 'brain abscess'],
  cardiovascular: ['endocarditis', 'line infection', 'line sepsis', 'crbsi', 'infected line', 'pericarditis', 'myocarditis'],
  musculoskeletal: ['osteomyelitis', 'septic arthritis', 'discitis', 'prosthetic joint infection'],
  obstetric: [
    'chorioamnionitis',
    'endometritis',
    'puerperal sepsis',
    'mastitis',
    'pelvic inflammatory disease',
    'pid',
    'retained products',
    'premature rupture of membranes',
  ],
  other: ['malaria', 'dengue', 'typhoid', 'fungal infection', 'candidaemia', 'herpes zoster', 'shingles', 'viral illness'],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[\s-]+/g, '[\\s-]+');

const PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${Object.values(INFECTION_SOURCES)
    .flat()
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})s?(?![\\p{L}\\p{N}])`,
  'iu',
);

/** The first infection word in a text, as written; undefined when none. */
export function infectionWordIn(text: string): string | undefined {
  return PATTERN.exec(text)?.[0];
}
