import { SOURCES } from './sources';

/**
 * Cross-reactivity beyond the allergy class: an allergy matching `allergy` warns for a drug
 * matching `drugs` (never a stop: the risk is real but low). Selectors are ingredient ids or
 * `class:<id>` (the class or a descendant). The first rule that matches is the one shown, so the
 * specific side-chain rules come before the class-wide ones.
 */
export interface CrossReactivity {
  id: string;
  allergy: string[];
  drugs: string[];
  /** only after a severe reaction (anaphylaxis, angioedema, SJS/TEN, DRESS): milder reactions do not cross */
  onlyAfterSevere?: boolean;
  /** for "…: <why>" */
  why: string;
  source: string;
}

const AMINOPENICILLINS = ['amoxicillin', 'ampicillin', 'pivampicillin'];
// Cephalosporins with an R1 side chain identical or similar to the aminopenicillins'.
const AMINO_CEPHALOSPORINS = ['cefalexin', 'cefadroxil', 'cefaclor', 'cefprozil', 'cefradine'];
const CEFTAZIDIME_GROUP = ['ceftazidime', 'aztreonam', 'cefiderocol'];

export const CROSS_REACTIVITY: CrossReactivity[] = [
  {
    id: 'r1-aminopenicillin-cephalosporin',
    allergy: AMINOPENICILLINS,
    drugs: AMINO_CEPHALOSPORINS,
    why: 'it shares a similar R1 side chain with amoxicillin and ampicillin, so cross-reactivity is higher than with other cephalosporins; prefer a cephalosporin with a dissimilar side chain unless tested',
    source: `${SOURCES.romano2020}; ${SOURCES.khan2022}; ${SOURCES.zagursky2018}`,
  },
  {
    id: 'r1-cephalosporin-aminopenicillin',
    allergy: AMINO_CEPHALOSPORINS,
    drugs: AMINOPENICILLINS,
    why: 'it shares a similar R1 side chain with cefalexin, cefadroxil, cefaclor and cefprozil; avoid aminopenicillins after a reaction to these unless tested',
    source: `${SOURCES.khan2022}; ${SOURCES.zagursky2018}`,
  },
  {
    id: 'r1-benzylpenicillin-cefalotin',
    allergy: ['benzylpenicillin', 'phenoxymethylpenicillin', 'benzathine benzylpenicillin', 'procaine benzylpenicillin'],
    drugs: ['cefalotin', 'cefoxitin'],
    why: 'its R1 side chain is similar to that of benzylpenicillin, so cross-reactivity is higher than with other cephalosporins',
    source: `${SOURCES.zagursky2018}; ${SOURCES.romano2020}`,
  },
  {
    id: 'r1-ceftazidime-aztreonam',
    allergy: CEFTAZIDIME_GROUP,
    drugs: CEFTAZIDIME_GROUP,
    why: 'ceftazidime and aztreonam share an identical R1 side chain (cefiderocol a similar one); aztreonam is otherwise tolerated in beta-lactam allergy',
    source: `${SOURCES.khan2022}; ${SOURCES.romano2020}`,
  },
  {
    id: 'penicillin-cephalosporin',
    allergy: ['class:penicillins'],
    drugs: ['class:cephalosporins'],
    why: 'cross-reactivity between penicillins and cephalosporins is low (about 1–2 %) but real, highest with similar side chains; check the type of the original reaction before giving',
    source: `${SOURCES.khan2022}; ${SOURCES.romano2020}`,
  },
  {
    id: 'penicillin-carbapenem',
    allergy: ['class:penicillins'],
    drugs: ['class:carbapenems'],
    why: 'cross-reactivity between penicillins and carbapenems is low (under 1 %) but real; check the type of the original reaction before giving',
    source: `${SOURCES.khan2022}; ${SOURCES.romano2020}`,
  },
  {
    id: 'nsaid-coxib',
    allergy: ['class:NSAIDs'],
    drugs: ['class:coxibs'],
    why: 'selective COX-2 inhibitors are usually tolerated in NSAID cross-intolerance, but not always; check the original reaction, and consider a supervised first dose',
    source: `${SOURCES.nsaid}; ${SOURCES.khan2022}`,
  },
  {
    id: 'coxib-nsaid',
    allergy: ['class:coxibs'],
    drugs: ['class:NSAIDs'],
    why: 'NSAIDs share COX inhibition with COX-2 inhibitors; check the original reaction',
    source: SOURCES.nsaid,
  },
  {
    // Pseudo-allergy (itch, flushing, urticaria from mast-cell release) does not cross structural
    // classes and is not an allergy; a true allergy is rare and structure-specific, so a switch to
    // another structural class is the usual advice — still a warning after a severe reaction.
    id: 'opioid-structural-class',
    allergy: ['class:opioids'],
    drugs: ['class:opioids'],
    onlyAfterSevere: true,
    why: 'it belongs to a different opioid structural class, which is usually tolerated (true opioid allergy is rare and structure-specific); give with monitoring',
    source: SOURCES.opioid,
  },
];
