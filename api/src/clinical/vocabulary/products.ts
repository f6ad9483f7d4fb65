import { SOURCES } from './sources';

/**
 * A combination product: an allergy to any ingredient is an allergy to the product. Its code is
 * `product:<id>`.
 */
export interface Product {
  id: string;
  /** ingredient ids (ingredients.ts) */
  ingredients: string[];
  atc?: string[];
  /** generic and regional names ("co-codamol"), and the ingredients written out */
  names: string[];
  brands?: string[];
  abbreviations?: string[];
  source: string;
}

const BNF_DMD = `${SOURCES.bnf}; ${SOURCES.dmd}`;
const US = `${SOURCES.fda}`;

export const PRODUCTS: Product[] = [
  // ---- penicillins
  {
    id: 'co-amoxiclav',
    ingredients: ['amoxicillin', 'clavulanic acid'],
    atc: ['J01CR02'],
    names: [
      'co amoxiclav',
      'coamoxiclav',
      'amoxiclav',
      'amoxicillin clavulanate',
      'amoxicillin clavulanic acid',
      'amoxycillin clavulanate',
    ],
    brands: ['augmentin', 'clavulin'],
    abbreviations: ['amox clav', 'amoxi clav'],
    source: `${SOURCES.atc}; ${BNF_DMD}; ${US}`,
  },
  {
    id: 'ampicillin-sulbactam',
    ingredients: ['ampicillin', 'sulbactam'],
    atc: ['J01CR01'],
    names: ['ampicillin sulbactam'],
    brands: ['unasyn'],
    abbreviations: ['amp sulb'],
    source: `${SOURCES.atc}; ${US}`,
  },
  {
    id: 'piperacillin-tazobactam',
    ingredients: ['piperacillin', 'tazobactam'],
    atc: ['J01CR05'],
    names: ['piperacillin tazobactam', 'pip tazo', 'piptazo', 'pip taz'],
    brands: ['tazocin', 'zosyn'],
    abbreviations: ['tzp'],
    source: `${SOURCES.atc}; ${BNF_DMD}; ${US}; ${SOURCES.ismp} (TZP)`,
  },
  {
    id: 'ticarcillin-clavulanate',
    ingredients: ['ticarcillin', 'clavulanic acid'],
    atc: ['J01CR03'],
    names: ['ticarcillin clavulanate', 'ticarcillin clavulanic acid'],
    brands: ['timentin'],
    source: `${SOURCES.atc}; ${BNF_DMD}`,
  },
  {
    id: 'co-fluampicil',
    ingredients: ['flucloxacillin', 'ampicillin'],
    names: ['co fluampicil', 'cofluampicil', 'flucloxacillin ampicillin', 'ampicillin flucloxacillin'],
    brands: ['magnapen'],
    source: BNF_DMD,
  },
  // ---- cephalosporin and carbapenem combinations
  {
    id: 'ceftolozane-tazobactam',
    ingredients: ['ceftolozane', 'tazobactam'],
    atc: ['J01DI54'],
    names: ['ceftolozane tazobactam'],
    brands: ['zerbaxa'],
    source: `${SOURCES.atc}; ${BNF_DMD}`,
  },
  {
    id: 'ceftazidime-avibactam',
    ingredients: ['ceftazidime', 'avibactam'],
    names: ['ceftazidime avibactam'],
    brands: ['zavicefta', 'avycaz'],
    source: `${BNF_DMD}; ${US}`,
  },
  {
    id: 'imipenem-cilastatin',
    ingredients: ['imipenem', 'cilastatin'],
    atc: ['J01DH51'],
    names: ['imipenem cilastatin'],
    brands: ['primaxin'],
    source: `${SOURCES.atc}; ${BNF_DMD}`,
  },
  {
    id: 'co-trimoxazole',
    ingredients: ['sulfamethoxazole', 'trimethoprim'],
    atc: ['J01EE01'],
    names: [
      'co trimoxazole',
      'cotrimoxazole',
      'trimethoprim sulfamethoxazole',
      'trimethoprim sulphamethoxazole',
      'sulfamethoxazole trimethoprim',
      'sulphamethoxazole trimethoprim',
    ],
    brands: ['bactrim', 'septrin', 'septra'],
    abbreviations: ['tmp smx', 'smx tmp', 'sxt'],
    source: `${SOURCES.atc}; ${BNF_DMD}; ${US}; ${SOURCES.ismp}`,
  },
  {
    id: 'lopinavir-ritonavir',
    ingredients: ['lopinavir', 'ritonavir'],
    atc: ['J05AR10'],
    names: ['lopinavir ritonavir'],
    brands: ['kaletra'],
    source: `${SOURCES.atc}; ${BNF_DMD}`,
  },
  // ---- codeine
  {
    id: 'co-codamol',
    ingredients: ['codeine', 'paracetamol'],
    atc: ['N02AJ06'],
    names: ['co codamol', 'cocodamol', 'codeine paracetamol', 'paracetamol codeine'],
    brands: ['solpadol', 'tylex', 'zapain', 'kapake', 'solpadeine', 'panadol ultra'],
    source: `${SOURCES.atc}; ${BNF_DMD}`,
  },
  {
    id: 'acetaminophen-codeine',
    ingredients: ['codeine', 'paracetamol'],
    names: ['acetaminophen codeine', 'codeine acetaminophen'],
    // "Tylenol #3" normalises to "tylenol 3"; also Tylenol with Codeine No. 3 and No. 4.
    brands: ['tylenol 3', 'tylenol 4', 'tylenol with codeine', 'tylenol codeine'],
    abbreviations: ['t3', 't 3'],
    source: `${US}; ${SOURCES.ismp} (T3)`,
  },
  {
    id: 'ibuprofen-codeine',
    ingredients: ['ibuprofen', 'codeine'],
    names: ['ibuprofen codeine', 'codeine ibuprofen'],
    brands: ['nurofen plus'],
    source: BNF_DMD,
  },
  {
    id: 'co-codaprin',
    ingredients: ['aspirin', 'codeine'],
    names: ['co codaprin', 'cocodaprin', 'aspirin codeine'],
    source: BNF_DMD,
  },
  {
    id: 'co-dydramol',
    ingredients: ['dihydrocodeine', 'paracetamol'],
    names: ['co dydramol', 'codydramol', 'dihydrocodeine paracetamol'],
    source: BNF_DMD,
  },
  // ---- other opioid combinations
  {
    id: 'oxycodone-paracetamol',
    ingredients: ['oxycodone', 'paracetamol'],
    names: ['oxycodone acetaminophen', 'oxycodone paracetamol'],
    brands: ['percocet', 'endocet', 'roxicet'],
    source: US,
  },
  {
    id: 'oxycodone-naloxone',
    ingredients: ['oxycodone'],
    names: ['oxycodone naloxone'],
    brands: ['targinact', 'targin'],
    source: BNF_DMD,
  },
  {
    id: 'hydrocodone-paracetamol',
    ingredients: ['hydrocodone', 'paracetamol'],
    names: ['hydrocodone acetaminophen'],
    brands: ['vicodin', 'norco', 'lortab'],
    source: US,
  },
  {
    id: 'tramadol-paracetamol',
    ingredients: ['tramadol', 'paracetamol'],
    names: ['tramadol paracetamol', 'tramadol acetaminophen'],
    brands: ['tramacet', 'ultracet'],
    source: `${BNF_DMD}; ${US}`,
  },
  // ---- aspirin
  {
    id: 'aspirin-paracetamol-caffeine',
    ingredients: ['aspirin', 'paracetamol', 'caffeine'],
    names: ['aspirin paracetamol caffeine', 'aspirin acetaminophen caffeine'],
    brands: ['excedrin', 'anadin extra'],
    source: `${US}; ${BNF_DMD}`,
  },
  {
    // Ecotrin is enteric-coated aspirin alone; listed as a product so the brand resolves to aspirin.
    id: 'ecotrin',
    ingredients: ['aspirin'],
    names: ['enteric coated aspirin', 'ec aspirin'],
    brands: ['ecotrin', 'bufferin'],
    source: US,
  },
  {
    id: 'ergotamine-caffeine',
    ingredients: ['ergotamine', 'caffeine'],
    names: ['ergotamine caffeine'],
    brands: ['cafergot'],
    source: US,
  },
];
