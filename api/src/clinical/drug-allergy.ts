import type { DrugAllergyAlert } from 'shared-contracts';

/*
 * Drug–allergy alerts: does a prescribed drug meet one of the patient's recorded allergies?
 *
 * Pure and deterministic. Allergy notes are free text ("Penicillin (rash)", "sulfa drugs",
 * "Allergic to amoxicillin and latex"); matching is on whole words after normalising case,
 * accents, punctuation and whitespace, so "penicillin" never matches inside "benzylpenicillin"
 * and "sulfa" never matches "ferrous sulfate".
 *
 * Deliberately NOT modelled (decision support errs towards few, meaningful alerts):
 *  - negation inside a note ("no reaction to penicillin") is not parsed: such a note still alerts;
 *  - cephalosporin allergy → penicillin (the reverse direction): the 2022 AAAAI/ACAAI drug-allergy
 *    practice parameter (Khan DA et al., J Allergy Clin Immunol 2022;150:1333–93) suggests that
 *    penicillins may be given after a non-anaphylactic cephalosporin reaction; the risk that does
 *    exist depends on shared R1 side chains, which this table does not encode;
 *  - sulfonamide antibiotic allergy → non-antibiotic sulfonamides (furosemide, thiazides,
 *    sulfonylureas, celecoxib): no clinically meaningful cross-reactivity (Strom BL et al.,
 *    N Engl J Med 2003;349:1628–35);
 *  - trimethoprim on its own is not a sulfonamide and does not alert against a sulfa allergy.
 */

export interface DrugMember {
  /** the generic name, lower case */
  name: string;
  /** other spellings and synonyms of the same product (lower case) */
  aliases?: string[];
  /** brand names (lower case here; capitalised in messages) */
  brands?: string[];
  /** the active ingredients of a combination product: an allergy to one is an allergy to the product */
  ingredients?: string[];
}

export interface DrugClass {
  /** the class, plural: 'penicillins' (also DrugAllergyAlert.drugClass) */
  id: string;
  /** for "Amoxicillin is a penicillin" */
  article: string;
  /** the words an allergy note may use for the whole class (a trailing plural "s" is accepted) */
  allergyTerms: string[];
  members: DrugMember[];
  /** an allergy to one of these classes makes a drug of this class a cross-reactivity warning */
  crossReactsWithAllergyTo?: { classId: string; why: string }[];
}

/*
 * Cross-reactivity figures: Khan DA et al. 2022 practice parameter (above) and Romano A et al.,
 * Allergy 2020;75:1300–15 — cephalosporins in penicillin allergy about 1–2 % overall, highest with
 * similar R1 side chains (aminopenicillins with cefalexin, cefadroxil, cefaclor); carbapenems < 1 %.
 */
export const DRUG_CLASSES: DrugClass[] = [
  {
    id: 'penicillins',
    article: 'a penicillin',
    // "beta-lactam" (also "β-lactam") names penicillins, cephalosporins and carbapenems together.
    allergyTerms: ['penicillin', 'beta-lactam'],
    members: [
      { name: 'amoxicillin', aliases: ['amoxycillin'], brands: ['amoxil'] },
      { name: 'ampicillin', aliases: ['ampicillin-sulbactam'], brands: ['unasyn'] },
      { name: 'piperacillin', aliases: ['piperacillin-tazobactam', 'pip-tazo'], brands: ['tazocin', 'zosyn'] },
      { name: 'flucloxacillin', aliases: ['floxacillin'], brands: ['floxapen'] },
      { name: 'dicloxacillin' },
      { name: 'cloxacillin' },
      { name: 'oxacillin' },
      { name: 'nafcillin' },
      { name: 'benzylpenicillin', aliases: ['penicillin G', 'benzathine benzylpenicillin', 'benzathine penicillin'] },
      { name: 'phenoxymethylpenicillin', aliases: ['penicillin V'] },
      { name: 'temocillin' },
      {
        name: 'co-amoxiclav',
        aliases: ['coamoxiclav', 'amoxiclav', 'amoxicillin-clavulanate', 'amoxicillin/clavulanic acid'],
        brands: ['augmentin'],
        ingredients: ['amoxicillin', 'amoxycillin', 'clavulanic acid', 'clavulanate'],
      },
    ],
  },
  {
    id: 'cephalosporins',
    article: 'a cephalosporin',
    allergyTerms: ['cephalosporin', 'beta-lactam'],
    members: [
      { name: 'cefalexin', aliases: ['cephalexin'], brands: ['keflex'] },
      { name: 'cefadroxil', aliases: ['cephadroxil'] },
      { name: 'cefaclor' },
      { name: 'cefuroxime', brands: ['zinnat', 'zinacef'] },
      { name: 'ceftriaxone', brands: ['rocephin'] },
      { name: 'cefazolin', aliases: ['cephazolin'], brands: ['ancef'] },
      { name: 'cefotaxime', brands: ['claforan'] },
      { name: 'ceftazidime', brands: ['fortum'] },
      { name: 'cefepime', brands: ['maxipime'] },
      { name: 'cefixime', brands: ['suprax'] },
      { name: 'cefpodoxime' },
      { name: 'cefoxitin' },
      { name: 'ceftaroline' },
    ],
    crossReactsWithAllergyTo: [
      {
        classId: 'penicillins',
        why: 'cross-reactivity between penicillins and cephalosporins is low (about 1–2 %) but real, highest with similar side chains (e.g. amoxicillin with cefalexin or cefadroxil); check the type of the original reaction before giving',
      },
    ],
  },
  {
    id: 'carbapenems',
    article: 'a carbapenem',
    allergyTerms: ['carbapenem', 'beta-lactam'],
    members: [
      { name: 'meropenem', brands: ['merrem'] },
      { name: 'imipenem', aliases: ['imipenem-cilastatin'], brands: ['primaxin'] },
      { name: 'ertapenem', brands: ['invanz'] },
      { name: 'doripenem' },
    ],
    crossReactsWithAllergyTo: [
      {
        classId: 'penicillins',
        why: 'cross-reactivity between penicillins and carbapenems is low (under 1 %) but real; check the type of the original reaction before giving',
      },
    ],
  },
  {
    id: 'sulfonamides',
    article: 'a sulfonamide antibiotic',
    allergyTerms: ['sulfa', 'sulpha', 'sulfonamide', 'sulphonamide'],
    members: [
      { name: 'sulfamethoxazole', aliases: ['sulphamethoxazole'] },
      {
        name: 'co-trimoxazole',
        aliases: [
          'cotrimoxazole',
          'trimethoprim-sulfamethoxazole',
          'trimethoprim-sulphamethoxazole',
          'sulfamethoxazole-trimethoprim',
          'tmp-smx',
          'smx-tmp',
        ],
        brands: ['bactrim', 'septrin', 'septra'],
        ingredients: ['sulfamethoxazole', 'sulphamethoxazole', 'trimethoprim'],
      },
      { name: 'sulfadiazine', aliases: ['sulphadiazine', 'silver sulfadiazine', 'silver sulphadiazine'], brands: ['flamazine'] },
      { name: 'sulfasalazine', aliases: ['sulphasalazine'], brands: ['salazopyrin', 'azulfidine'] },
    ],
  },
  {
    // Aspirin and the other NSAIDs share COX-1 inhibition, the mechanism of most NSAID
    // hypersensitivity (NSAID-exacerbated respiratory disease, urticaria), hence one class.
    // Selective COX-2 inhibitors (celecoxib, etoricoxib) are usually tolerated in that cross-
    // intolerance, but a class alert still asks the prescriber to check the reaction: kept here.
    id: 'NSAIDs',
    article: 'an NSAID',
    allergyTerms: ['NSAID', 'non-steroidal anti-inflammatory', 'nonsteroidal anti-inflammatory', 'aspirin', 'salicylate'],
    members: [
      { name: 'aspirin', aliases: ['acetylsalicylic acid'], brands: ['disprin'] },
      { name: 'ibuprofen', brands: ['brufen', 'nurofen', 'advil', 'motrin'] },
      { name: 'naproxen', brands: ['naprosyn', 'aleve'] },
      { name: 'diclofenac', brands: ['voltarol', 'voltaren'] },
      { name: 'ketorolac', brands: ['toradol'] },
      { name: 'indomethacin', aliases: ['indometacin'], brands: ['indocin'] },
      { name: 'celecoxib', brands: ['celebrex'] },
      { name: 'mefenamic acid', brands: ['ponstan'] },
      { name: 'etoricoxib', brands: ['arcoxia'] },
      { name: 'ketoprofen' },
      { name: 'meloxicam' },
      { name: 'piroxicam' },
    ],
  },
  {
    id: 'macrolides',
    article: 'a macrolide',
    allergyTerms: ['macrolide'],
    members: [
      { name: 'erythromycin' },
      { name: 'azithromycin', brands: ['zithromax'] },
      { name: 'clarithromycin', brands: ['klaricid', 'biaxin'] },
    ],
  },
  {
    id: 'fluoroquinolones',
    article: 'a fluoroquinolone',
    allergyTerms: ['fluoroquinolone', 'quinolone'],
    members: [
      { name: 'ciprofloxacin', brands: ['cipro', 'ciproxin'] },
      { name: 'levofloxacin', brands: ['levaquin', 'tavanic'] },
      { name: 'moxifloxacin', brands: ['avelox'] },
      { name: 'ofloxacin' },
      { name: 'norfloxacin' },
    ],
  },
  {
    id: 'tetracyclines',
    article: 'a tetracycline',
    allergyTerms: ['tetracycline'],
    members: [
      { name: 'tetracycline' },
      { name: 'doxycycline', brands: ['vibramycin'] },
      { name: 'minocycline', brands: ['minocin'] },
      { name: 'oxytetracycline' },
      { name: 'lymecycline' },
    ],
  },
  {
    id: 'opioids',
    article: 'an opioid',
    allergyTerms: ['opioid', 'opiate'],
    members: [
      { name: 'morphine' },
      { name: 'codeine' },
      { name: 'dihydrocodeine' },
      { name: 'diamorphine', aliases: ['heroin'] },
      { name: 'oxycodone', brands: ['oxycontin', 'oxynorm'] },
      { name: 'hydromorphone', brands: ['dilaudid'] },
      { name: 'fentanyl' },
      { name: 'tramadol' },
      { name: 'tapentadol' },
      { name: 'pethidine', aliases: ['meperidine'], brands: ['demerol'] },
      { name: 'methadone' },
      { name: 'buprenorphine' },
    ],
  },
];

/** Lower case, no accents, letters and digits split apart ("500mg" → "500 mg"), other characters → one space. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/β/g, 'beta')
    .replace(/([a-z])(?=\d)/g, '$1 ')
    .replace(/(\d)(?=[a-z])/g, '$1 ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

interface Hit {
  /** the table's spelling of the term that matched */
  term: string;
  start: number;
  end: number;
}

/** Whole-word occurrences of `term` in already-normalised `text`; a trailing plural "s" is accepted. */
function occurrences(text: string, term: string): Hit[] {
  const t = normalise(term);
  if (!t) return [];
  const hits: Hit[] = [];
  const re = new RegExp(`(?<![a-z0-9])${t}s?(?![a-z0-9])`, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) hits.push({ term, start: m.index, end: m.index + m[0].length });
  return hits;
}

/** The first (leftmost, then longest) whole-word match of any of `terms` in normalised `text`. */
function firstHit(text: string, terms: readonly string[]): Hit | undefined {
  let best: Hit | undefined;
  for (const term of terms) {
    for (const hit of occurrences(text, term)) {
      if (!best || hit.start < best.start || (hit.start === best.start && hit.end > best.end)) best = hit;
    }
  }
  return best;
}

const namesOf = (m: DrugMember): string[] => [m.name, ...(m.aliases ?? []), ...(m.brands ?? [])];
const classById = (id: string) => DRUG_CLASSES.find((c) => c.id === id);
const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** How a name reads in a message: brands capitalised ('Augmentin'), generics as written. */
function display(term: string, member?: DrugMember): string {
  return member?.brands?.includes(term) ? capitalise(term) : term;
}

interface Identity {
  cls?: DrugClass;
  member?: DrugMember;
  /** the name as found in the drug text (table spelling) */
  found: string;
  start: number;
  end: number;
}

/** The table's drugs named in a drug text ("Augmentin 625 mg tablets"); longest match wins on overlap. */
function identify(drug: string): Identity[] {
  const text = normalise(drug);
  const candidates: Identity[] = [];
  for (const cls of DRUG_CLASSES) {
    for (const member of cls.members) {
      for (const name of namesOf(member)) {
        for (const hit of occurrences(text, name)) candidates.push({ cls, member, found: name, start: hit.start, end: hit.end });
      }
    }
  }
  // "amoxicillin clavulanic acid" is co-amoxiclav, not amoxicillin: keep the longest, non-overlapping.
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const chosen: Identity[] = [];
  for (const c of candidates) {
    if (chosen.some((k) => c.start < k.end && k.start < c.end)) continue;
    if (chosen.some((k) => k.member === c.member)) continue;
    chosen.push(c);
  }
  if (chosen.length) return chosen.sort((a, b) => a.start - b.start);

  // Only a class named ("penicillin", "opioid analgesia").
  for (const cls of DRUG_CLASSES) {
    const hit = firstHit(text, cls.allergyTerms);
    if (hit) return [{ cls, found: hit.term, start: hit.start, end: hit.end }];
  }

  // A drug outside the table: its leading name words ("vancomycin" in "Vancomycin 1 g IV"),
  // still checked by name so an allergy to exactly that drug is not missed.
  const name = leadingName(text);
  return name ? [{ found: name, start: 0, end: name.length }] : [];
}

const DOSE_WORDS = new Set(
  (
    'tab tabs tablet tablets cap caps capsule capsules inj injection infusion syrup suspension solution elixir cream ' +
    'ointment gel drops drop inhaler spray patch suppository iv im po sc sl pr oral mg mcg ug g ml l unit units iu ' +
    'od bd tds qds qid tid bid daily once twice prn stat sr mr xl er cr la every per for x'
  ).split(' '),
);

function leadingName(text: string): string | undefined {
  const words = text.split(' ').filter(Boolean);
  while (words.length && DOSE_WORDS.has(words[0])) words.shift();
  const name: string[] = [];
  for (const w of words) {
    if (/\d/.test(w) || DOSE_WORDS.has(w)) break;
    name.push(w);
  }
  const joined = name.join(' ');
  return joined.replace(/ /g, '').length >= 4 ? joined : undefined;
}

/** Notes that say there is no allergy. */
const NEGATIVE_NOTES = new Set([
  'none',
  'nil',
  'no',
  'na',
  'n a',
  'nkda',
  'nka',
  'nkfa',
  'none known',
  'not known',
  'unknown',
  'no known drug allergies',
  'no known drug allergy',
  'no known allergies',
  'no known allergy',
  'no allergies',
  'no allergy',
  'no drug allergies',
  'no drug allergy',
]);

/** The drug class of a drug text ('penicillins' for "Amoxicillin 500 mg"), or undefined. */
export function classOf(drug: string): string | undefined {
  return identify(drug).find((i) => i.cls)?.cls?.id;
}

/**
 * The alerts for giving `drug` to a patient with these recorded allergy notes.
 * At most one alert per allergy note for each drug named in `drug` (so, for one drug, at most one
 * per note and kind), the most serious kind found: same-drug, then same-class, then cross-reactivity.
 */
export function drugAllergyAlerts(drug: string, allergies: string[]): DrugAllergyAlert[] {
  const drugText = drug.replace(/\s+/g, ' ').trim();
  if (!drugText) return [];
  const identities = identify(drugText);
  const alerts: DrugAllergyAlert[] = [];

  for (const raw of allergies) {
    const note = raw.replace(/\s+/g, ' ').trim();
    const text = normalise(note);
    if (!text || NEGATIVE_NOTES.has(text)) continue;
    const quoted = `(“${note}”)`;

    for (const id of identities) {
      const D = id.member
        ? id.found === id.member.name
          ? capitalise(id.member.name)
          : `${capitalise(id.found)} (${id.member.name})`
        : capitalise(id.found);
      const base = { drug: drugText, allergy: note, ...(id.cls ? { drugClass: id.cls.id } : {}) };
      const alert = (kind: DrugAllergyAlert['kind'], message: string) => alerts.push({ ...base, kind, message });

      // same-drug: the drug by any of its names, or one of its ingredients.
      const own = id.member ? namesOf(id.member) : [id.found];
      const ownHit = firstHit(text, own);
      if (ownHit) {
        alert(
          'same-drug',
          ownHit.term === id.found
            ? `${D}: the patient has a recorded allergy to this drug ${quoted}.`
            : `${D}: the patient has a recorded allergy to this drug, recorded as ${display(ownHit.term, id.member)} ${quoted}.`,
        );
        continue;
      }
      const ingredientHit = id.member?.ingredients && firstHit(text, id.member.ingredients);
      if (ingredientHit) {
        alert(
          'same-drug',
          `${D} contains ${ingredientHit.term}; the patient has a recorded ${ingredientHit.term} allergy ${quoted}.`,
        );
        continue;
      }
      // …or a combination product that contains the drug (allergy to Augmentin, drug amoxicillin).
      const containing = id.member && id.cls?.members.filter((m) => m.ingredients?.some((i) => own.includes(i)));
      const containingHit = containing?.length ? firstHit(text, containing.flatMap(namesOf)) : undefined;
      if (containingHit) {
        const product = containing!.find((m) => namesOf(m).includes(containingHit.term));
        alert(
          'same-drug',
          `${D} is an ingredient of ${display(containingHit.term, product)}; the patient has a recorded ${display(containingHit.term, product)} allergy ${quoted}.`,
        );
        continue;
      }
      if (!id.cls) continue;

      // same-class: the class named, or another member of it.
      const classMembers = id.cls.members.flatMap(namesOf);
      const classHit = firstHit(text, [...id.cls.allergyTerms, ...classMembers]);
      if (classHit) {
        const product = id.cls.members.find((m) => namesOf(m).includes(classHit.term));
        const allergen = display(classHit.term, product);
        alert(
          'same-class',
          id.member
            ? `${D} is ${id.cls.article}; the patient has a recorded ${allergen} allergy ${quoted}.`
            : `${D} names the ${id.cls.id} class; the patient has a recorded ${allergen} allergy ${quoted}.`,
        );
        continue;
      }

      // cross-reactivity: a warning, never a contraindication.
      for (const link of id.cls.crossReactsWithAllergyTo ?? []) {
        const other = classById(link.classId);
        if (!other) continue;
        const hit = firstHit(text, [...other.allergyTerms, ...other.members.flatMap(namesOf)]);
        if (!hit) continue;
        const product = other.members.find((m) => namesOf(m).includes(hit.term));
        alert(
          'cross-reactivity',
          `${D} is ${id.cls.article} and the patient has a recorded ${display(hit.term, product)} allergy ${quoted}. ` +
            `This is a warning, not a contraindication: ${link.why}.`,
        );
        break;
      }
    }
  }
  return alerts;
}
