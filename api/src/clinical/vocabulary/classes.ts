import { SOURCES } from './sources';

/** A drug class an allergy can name ("penicillin allergy") and an ingredient can belong to. */
export interface DrugClass {
  /** the code is `class:<id>` */
  id: string;
  /** singular, for messages: "amoxicillin is a penicillin" */
  name: string;
  article: string;
  /** words an allergy note uses for the whole class (normalised, singular; a plural "s" is accepted) */
  terms: string[];
  /** an allergy to the parent class covers this one ("beta-lactam allergy" covers penicillins) */
  parent?: string;
  source: string;
}

export const CLASSES: DrugClass[] = [
  {
    id: 'beta-lactams',
    name: 'beta-lactam',
    article: 'a beta-lactam',
    terms: ['beta lactam', 'betalactam', 'b lactam'],
    source: SOURCES.khan2022,
  },
  {
    id: 'penicillins',
    name: 'penicillin',
    article: 'a penicillin',
    terms: ['penicillin', 'pcn'],
    parent: 'beta-lactams',
    source: `${SOURCES.atc} (J01C); ${SOURCES.ismp} (PCN)`,
  },
  {
    id: 'cephalosporins',
    name: 'cephalosporin',
    article: 'a cephalosporin',
    terms: ['cephalosporin', 'cephalosporine'],
    parent: 'beta-lactams',
    source: `${SOURCES.atc} (J01DB–J01DI)`,
  },
  {
    id: 'carbapenems',
    name: 'carbapenem',
    article: 'a carbapenem',
    terms: ['carbapenem'],
    parent: 'beta-lactams',
    source: `${SOURCES.atc} (J01DH)`,
  },
  // Aztreonam (the only monobactam) is tolerated in penicillin and most cephalosporin allergy;
  // only ceftazidime (and cefiderocol) share its side chain (Khan 2022): no parent, a rule instead.
  { id: 'monobactams', name: 'monobactam', article: 'a monobactam', terms: ['monobactam'], source: `${SOURCES.atc} (J01DF)` },
  {
    id: 'sulfonamides',
    name: 'sulfonamide antibiotic',
    article: 'a sulfonamide antibiotic',
    terms: ['sulfa', 'sulpha', 'sulfonamide', 'sulphonamide', 'sulfa drug', 'sulpha drug'],
    source: `${SOURCES.atc} (J01E); ${SOURCES.sulfa}`,
  },
  {
    id: 'NSAIDs',
    name: 'NSAID',
    article: 'an NSAID',
    terms: ['nsaid', 'non steroidal anti inflammatory', 'nonsteroidal anti inflammatory', 'salicylate'],
    source: `${SOURCES.atc} (M01A, N02BA); ${SOURCES.nsaid}`,
  },
  // Selective COX-2 inhibitors are usually tolerated in NSAID cross-intolerance (Kowalski 2013):
  // an allergy to one non-selective NSAID warns for them rather than counting as the same class.
  {
    id: 'coxibs',
    name: 'COX-2 inhibitor',
    article: 'a COX-2 inhibitor',
    terms: ['coxib'],
    parent: 'NSAIDs',
    source: SOURCES.nsaid,
  },
  { id: 'macrolides', name: 'macrolide', article: 'a macrolide', terms: ['macrolide'], source: `${SOURCES.atc} (J01FA)` },
  {
    id: 'fluoroquinolones',
    name: 'fluoroquinolone',
    article: 'a fluoroquinolone',
    terms: ['fluoroquinolone', 'quinolone'],
    source: `${SOURCES.atc} (J01MA)`,
  },
  {
    id: 'tetracyclines',
    name: 'tetracycline',
    article: 'a tetracycline',
    terms: ['tetracycline class'],
    source: `${SOURCES.atc} (J01AA)`,
  },
  {
    id: 'glycopeptides',
    name: 'glycopeptide',
    article: 'a glycopeptide',
    terms: ['glycopeptide'],
    source: `${SOURCES.atc} (J01XA)`,
  },
  { id: 'opioids', name: 'opioid', article: 'an opioid', terms: ['opioid', 'opiate', 'narcotic'], source: SOURCES.opioid },
  // Opioid structural classes: a true allergy is specific to the structure, so the allergy class of
  // an opioid is its structural class, not "opioids" (Khan 2022; Li 2017).
  {
    id: 'phenanthrene opioids',
    name: 'phenanthrene opioid',
    article: 'a phenanthrene opioid',
    terms: ['phenanthrene'],
    parent: 'opioids',
    source: SOURCES.opioid,
  },
  {
    id: 'phenylpiperidine opioids',
    name: 'phenylpiperidine opioid',
    article: 'a phenylpiperidine opioid',
    terms: ['phenylpiperidine'],
    parent: 'opioids',
    source: SOURCES.opioid,
  },
  {
    id: 'diphenylheptane opioids',
    name: 'diphenylheptane opioid',
    article: 'a diphenylheptane opioid',
    terms: ['diphenylheptane'],
    parent: 'opioids',
    source: SOURCES.opioid,
  },
  {
    id: 'other opioids',
    name: 'opioid',
    article: 'an opioid (tramadol/tapentadol type)',
    terms: [],
    parent: 'opioids',
    source: SOURCES.opioid,
  },
];

const CLASS_BY_ID = new Map(CLASSES.map((c) => [c.id, c]));
export const classById = (id: string): DrugClass | undefined => CLASS_BY_ID.get(id);

/** The class and its ancestors, nearest first. */
export function lineage(id: string | undefined): string[] {
  const out: string[] = [];
  for (let c = id ? classById(id) : undefined; c && !out.includes(c.id); c = c.parent ? classById(c.parent) : undefined)
    out.push(c.id);
  return out;
}
