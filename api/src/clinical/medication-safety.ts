import type { MedicationAlert } from '@careloop/shared-contracts';
import type { AllergyEntry } from './allergy-entry';
import { readAllergyText } from './allergy-text';
import { groupName, interactionKeys, interactionsBetween, INTERACTION_GROUPS, type Interaction } from './interactions';
import { findSubstances, type Mention } from './substance-matcher';
import {
  classById,
  codeOf,
  CROSS_REACTIVITY,
  displayName,
  ingredientById,
  ingredientsOf,
  lineage,
  normalise,
  targetOfCode,
  VOCABULARY_VERSION,
  type CrossReactivity,
  type Target,
} from './vocabulary';
import { SOURCES } from './vocabulary/sources';

/*
 * The medication-safety check (issue 13): every alert for prescribing a drug to a patient, from
 * their allergy entries (structured, or read from free text by readAllergyText) and their active
 * medications.
 *
 * Severity (issue 13 item 3; Khan DA et al. 2022 practice parameter):
 *  - an active allergy (confirmed or unconfirmed) to the same ingredient or class with a high
 *    criticality or a severe reaction (anaphylaxis, angioedema, SJS/TEN, DRESS, …) is a **stop**,
 *    passed only with an override reason; the same without a severe reaction is a **warning**;
 *  - cross-reactivity (another class, a shared side chain) is a **warning** whose text names the reaction;
 *  - an intolerance to the same ingredient or class is **info**; it never cross-reacts;
 *  - refuted, inactive and resolved entries are silent.
 * Drug–drug interactions: interactions.ts (stop for the ONC contraindicated list, warning otherwise).
 */

export { readAllergyText, VOCABULARY_VERSION };

export type { AllergyEntry };

/**
 * A substance name → its vocabulary code ('amoxicillin', 'class:penicillins', 'product:co-codamol');
 * readAs when not written as the vocabulary's name; a misspelling equally near several substances
 * codes as the first and lists every candidate's code (readAs "amoxicillin or ampicillin").
 */
export function codeSubstance(text: string): { text: string; code?: string; readAs?: string; candidates?: string[] } {
  const [first] = findSubstances(text);
  if (!first) return { text };
  return {
    text,
    code: codeOf(first.target),
    ...(first.readAs ? { readAs: first.readAs } : {}),
    ...(first.candidates ? { candidates: first.candidates.map(codeOf) } : {}),
  };
}

const SEVERE_WORDS =
  /anaphyla|angio ?o?edema|stevens johnson|\bsjs\b|\bten\b|epidermal necrolysis|\bdress\b|\bagep\b|bronchospasm|swelling|collapse|blister/;

/** A high criticality or a severe reaction (the stop criterion). */
export function isSevere(entry: AllergyEntry): boolean {
  return (
    entry.criticality === 'high' ||
    entry.reactions.some(
      (r) => r.severity === 'severe' || (r.severity === undefined && SEVERE_WORDS.test(normalise(r.manifestation))),
    )
  );
}

const SEVERITY_ORDER: Record<MedicationAlert['severity'], number> = { stop: 0, warning: 1, info: 2 };
const ALLERGY_SOURCE = `CareLoop substance vocabulary ${VOCABULARY_VERSION}; ${SOURCES.khan2022}`;

const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** The classes (with their ancestors) and ingredients a target belongs to. */
function keysOf(t: Target): { ingredients: string[]; classes: string[] } {
  const ingredients = ingredientsOf(t);
  const classes =
    t.kind === 'class' ? lineage(t.id) : [...new Set(ingredients.flatMap((i) => lineage(ingredientById(i)?.class)))];
  return { ingredients, classes };
}

type Relation =
  | { kind: 'ingredient'; ingredient: string }
  | { kind: 'class'; classId: string }
  | { kind: 'cross'; rule: CrossReactivity; classId?: string };

const selects = (selectors: string[], keys: { ingredients: string[]; classes: string[] }) =>
  selectors.some((s) => (s.startsWith('class:') ? keys.classes.includes(s.slice(6)) : keys.ingredients.includes(s)));

/** How a drug relates to an allergen: same ingredient, same allergy class, a cross-reactivity rule, or not at all. */
function relate(drug: Target, allergen: Target, severe: boolean): Relation | undefined {
  const d = keysOf(drug);
  const a = keysOf(allergen);
  const shared = d.ingredients.find((i) => a.ingredients.includes(i));
  if (shared) return { kind: 'ingredient', ingredient: shared };

  // Same allergy class: an allergy to a class covers its descendants; an allergy to an ingredient
  // covers the ingredients of its own class ("amoxicillin" → penicillins; "morphine" → phenanthrenes).
  const drugClasses = drug.kind === 'class' ? [drug.id] : d.ingredients.map((i) => ingredientById(i)?.class);
  for (const dc of drugClasses) {
    if (!dc) continue;
    if (allergen.kind === 'class' && lineage(dc).includes(allergen.id)) return { kind: 'class', classId: allergen.id };
    if (allergen.kind !== 'class') {
      const own = a.ingredients.map((i) => ingredientById(i)?.class).filter((c): c is string => !!c);
      if (own.includes(dc)) return { kind: 'class', classId: dc };
      if (drug.kind === 'class' && own.some((c) => lineage(c).includes(dc))) return { kind: 'class', classId: dc };
    }
  }

  for (const rule of CROSS_REACTIVITY) {
    if (rule.onlyAfterSevere && !severe) continue;
    if (selects(rule.allergy, a) && selects(rule.drugs, d)) return { kind: 'cross', rule, classId: d.classes[0] };
  }
  return undefined;
}

/** The allergen as the message names it: the vocabulary's name when written that way, else as written. */
function allergenName(entry: AllergyEntry, target?: Target): string {
  const text = entry.substance.text.trim();
  // a class by its name ("NSAIDs", "PCN" → "NSAID", "penicillin"); an ingredient or product as written
  if (target && (target.kind === 'class' || normalise(text) === normalise(displayName(target)))) return displayName(target);
  return text;
}

function reactionPhrase(entry: AllergyEntry): string {
  const names = entry.reactions.map((r) => r.manifestation.trim()).filter(Boolean);
  return names.length ? names.join(' and ') : '';
}

const shownDrug = (m: Mention) =>
  m.readAs ? `${m.matchedText} (read as ${m.readAs}${m.candidates ? ' — confirm the drug' : ''})` : m.matchedText;

/** A mention per substance it may be: an ambiguous misspelling is checked as each of its candidates. */
const expand = (mentions: Mention[]): Mention[] =>
  mentions.flatMap((m) => (m.candidates ? m.candidates.map((target) => ({ ...m, target })) : [m]));

/** The entry's doubt, appended to an alert's message. */
const reviewNote = (entry: AllergyEntry) => (entry.review ? ` To review: ${entry.review.replace(/[.\s]+$/, '')}.` : '');

function articleOf(classId: string | undefined): string | undefined {
  return classId ? classById(classId)?.article : undefined;
}

interface Detailed {
  alert: MedicationAlert;
  /** what makes two alerts the same finding (dedupe): kind, allergen, drug ingredient, rule */
  key: string;
  relation: Relation['kind'];
  drugClass?: string;
}

/** The allergy side of the check, with how each alert matched (the legacy adapter needs it). */
function allergyAlerts(drugText: string, mentions: Mention[], entries: AllergyEntry[]): Detailed[] {
  const out: Detailed[] = [];
  for (const entry of entries) {
    if (entry.clinicalStatus !== 'active' || entry.verificationStatus === 'refuted') continue;
    const coded = entry.substance.code ? targetOfCode(entry.substance.code) : undefined;
    const allergens = coded ? [coded] : findSubstances(entry.substance.text).map((m) => m.target);
    const severe = entry.type === 'allergy' && isSevere(entry);
    const status = entry.verificationStatus === 'confirmed' ? 'confirmed' : 'unconfirmed';
    const reaction = reactionPhrase(entry);
    const allergenKey = entry.substance.code ?? normalise(entry.substance.text);

    if (!allergens.length) {
      // An uncoded allergen: alert when the drug text names it, word for word.
      const name = normalise(entry.substance.text);
      if (name.replace(/ /g, '').length < 4 || !` ${normalise(drugText)} `.includes(` ${name} `)) continue;
      const text = entry.substance.text.trim();
      const allergic = entry.type === 'allergy';
      out.push({
        relation: 'ingredient',
        key: `${allergic ? 'allergy' : 'intolerance'}|${allergenKey}|${normalise(drugText)}`,
        alert: {
          kind: allergic ? 'allergy' : 'intolerance',
          severity: allergic ? (severe ? 'stop' : 'warning') : 'info',
          substance: text,
          matchedText: drugText,
          message: allergic
            ? `${capitalise(drugText)}: the patient has an ${status} allergy to ${text}${reaction ? ` with ${reaction}` : ''} (not in the vocabulary: matched by name).${reviewNote(entry)}`
            : `${capitalise(drugText)}: the patient has a recorded intolerance to ${text}${reaction ? ` (${reaction})` : ''}, not an allergy.${reviewNote(entry)}`,
          source: `${ALLERGY_SOURCE} (uncoded substance)`,
        },
      });
      continue;
    }

    for (const mention of expand(mentions)) {
      let best: { relation: Relation; allergen: Target } | undefined;
      for (const allergen of allergens) {
        const r = relate(mention.target, allergen, severe);
        const rank = (x?: Relation) => (x ? { ingredient: 0, class: 1, cross: 2 }[x.kind] : 3);
        if (r && rank(r) < rank(best?.relation)) best = { relation: r, allergen };
      }
      if (!best) continue;
      const { relation, allergen } = best;
      const name = allergenName(entry, allergen);
      const D = shownDrug(mention);
      const base = {
        substance: entry.substance.text,
        matchedText: mention.matchedText,
        ...(mention.readAs ? { readAs: mention.readAs } : {}),
      };
      const drugClass = keysOf(mention.target).classes[0];
      const drugKey = relation.kind === 'ingredient' ? relation.ingredient : codeOf(mention.target);

      if (relation.kind === 'cross') {
        if (entry.type !== 'allergy') continue; // an intolerance does not cross-react
        const article = articleOf(relation.classId) ?? 'a related drug';
        const after = reaction ? `after ${reaction} to ${name}` : `with a recorded ${name} allergy (reaction not recorded)`;
        const why = relation.rule.why;
        out.push({
          relation: 'cross',
          key: `cross-reactivity|${allergenKey}|${drugKey}`,
          drugClass,
          alert: {
            ...base,
            kind: 'cross-reactivity',
            severity: 'warning',
            message: `${capitalise(D)} is ${article}; ${after}: ${why}. This is a warning, not a contraindication.${reviewNote(entry)}`,
            source: relation.rule.source,
          },
        });
        continue;
      }

      // What ties the drug to the allergen, for the message.
      let tie: string;
      if (relation.kind === 'ingredient') {
        const ingredient = relation.ingredient;
        if (mention.target.kind === 'product') tie = `${capitalise(D)} contains ${ingredient}`;
        else if (allergen.kind === 'product' && normalise(name) !== normalise(ingredient))
          tie = `${capitalise(D)} is an ingredient of ${name}`;
        else tie = capitalise(D);
      } else {
        const cls = classById(relation.classId);
        const article = cls?.article ?? 'in the same class';
        const viaProduct =
          mention.target.kind === 'product'
            ? ingredientsOf(mention.target).find((i) => lineage(ingredientById(i)?.class).includes(relation.classId))
            : undefined;
        tie = viaProduct ? `${capitalise(D)} contains ${viaProduct}, ${article}` : `${capitalise(D)} is ${article}`;
      }
      const sep = tie === capitalise(D) ? ':' : ';';
      if (entry.type === 'intolerance') {
        out.push({
          relation: relation.kind,
          key: `intolerance|${allergenKey}|${drugKey}`,
          drugClass,
          alert: {
            ...base,
            kind: 'intolerance',
            severity: 'info',
            message: `${tie}${sep} the patient has a recorded intolerance to ${name}${reaction ? ` (${reaction})` : ''}, not an allergy.${reviewNote(entry)}`,
            source: ALLERGY_SOURCE,
          },
        });
        continue;
      }
      out.push({
        relation: relation.kind,
        key: `allergy|${allergenKey}|${drugKey}`,
        drugClass,
        alert: {
          ...base,
          kind: 'allergy',
          severity: severe ? 'stop' : 'warning',
          message: `${tie}${sep} the patient has ${status === 'confirmed' ? 'a confirmed' : 'an unconfirmed'} ${name} allergy${reaction ? ` with ${reaction}` : ''}${severe ? '' : entry.reactions.length ? '' : ' (reaction not recorded)'}.${reviewNote(entry)}`,
          source: ALLERGY_SOURCE,
        },
      });
    }
  }
  return out;
}

function interactionAlerts(mentions: Mention[], activeMedications: string[]): { found: Detailed[]; uncoded: string[] } {
  const found: Detailed[] = [];
  const uncoded: string[] = [];
  const ourMentions = expand(mentions);
  for (const medication of activeMedications) {
    const text = medication.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const theirs = expand(findSubstances(text));
    // its interactions could not be checked: say so
    if (!theirs.length) {
      if (!uncoded.includes(text)) uncoded.push(text);
      continue;
    }
    for (const mention of ourMentions) {
      for (const ours of ingredientsOf(mention.target)) {
        for (const other of theirs) {
          for (const their of ingredientsOf(other.target)) {
            const [rule] = interactionsBetween(ours, their);
            if (!rule) continue;
            found.push({
              relation: 'ingredient',
              key: `interaction|${their}|${ours}|${rule.id}`,
              alert: {
                kind: 'interaction',
                severity: rule.severity,
                substance: text,
                matchedText: mention.matchedText,
                ...(mention.readAs ? { readAs: mention.readAs } : {}),
                message: interactionMessage(rule, mention, ours, text, other, their),
                source: rule.source,
              },
            });
          }
        }
      }
    }
  }
  return { found, uncoded };
}

/** "Ibuprofen (an NSAID) with the patient's warfarin (“Warfarin 5 mg”): increased risk of bleeding… Avoid…" */
function interactionMessage(
  rule: Interaction,
  mention: Mention,
  ours: string,
  medication: string,
  other: Mention,
  their: string,
): string {
  const role = (ingredient: string, sides: string[]) => {
    const key = sides.find((k) => interactionKeys(ingredient).includes(k));
    return key && INTERACTION_GROUPS[key] && INTERACTION_GROUPS[key].members.length > 1 ? ` (${groupName(key)})` : '';
  };
  const oursSide = interactionKeys(ours).some((k) => rule.a.includes(k)) ? rule.a : rule.b;
  const theirSide = oursSide === rule.a ? rule.b : rule.a;
  const theirName = normalise(other.matchedText) === normalise(their) ? their : `${their} (“${medication}”)`;
  const with_ = `the patient's active ${theirName}${role(their, theirSide)}: ${rule.effect}. ${rule.advice}.`;
  return mention.target.kind === 'product'
    ? `${capitalise(shownDrug(mention))} contains ${ours}${role(ours, oursSide)}; with ${with_}`
    : `${capitalise(shownDrug(mention))}${role(ours, oursSide)} with ${with_}`;
}

/** At most this many alerts per check; stop alerts are never cut. */
export const MAX_ALERTS = 20;

/**
 * One alert per finding: alerts with the same kind, allergen (its code, or its text when uncoded),
 * drug ingredient and interaction rule are one, kept at its most severe (the first of those).
 * Then ordered stop, warning, info (first found first) and capped at MAX_ALERTS, every stop kept.
 */
export function dedupeAlerts(found: { alert: MedicationAlert; key: string }[]): {
  alerts: MedicationAlert[];
  omitted: number;
} {
  const byKey = new Map<string, { alert: MedicationAlert; i: number }>();
  found.forEach(({ alert, key }, i) => {
    const kept = byKey.get(key);
    if (!kept || SEVERITY_ORDER[alert.severity] < SEVERITY_ORDER[kept.alert.severity]) byKey.set(key, { alert, i: kept?.i ?? i });
  });
  const sorted = [...byKey.values()]
    .sort((x, y) => SEVERITY_ORDER[x.alert.severity] - SEVERITY_ORDER[y.alert.severity] || x.i - y.i)
    .map(({ alert }) => alert);
  const stops = sorted.filter((a) => a.severity === 'stop').length;
  const alerts = sorted.slice(0, Math.max(MAX_ALERTS, stops));
  return { alerts, omitted: sorted.length - alerts.length };
}

/** A drug text in which no vocabulary substance is found: nothing about it can be checked. */
export const uncodedDrug = (text: string): boolean => !!text.trim() && findSubstances(text).length === 0;

/** What a check found, and what it could not check. */
export interface MedicationCheck {
  /** stop, warning, info; deduplicated; at most MAX_ALERTS unless there are more stops */
  alerts: MedicationAlert[];
  /**
   * Drug texts the check could not code: the prescribed drug when no substance is found in it (no
   * allergy or interaction could be checked for it), and each active medication in which none is
   * found (its interactions could not be checked)
   */
  uncoded: string[];
  /** alerts left out by the cap (never a stop) */
  omitted: number;
}

/**
 * Every alert for prescribing `drug`, and what could not be checked: allergies (refuted, inactive
 * and resolved entries silent) and interactions with the patient's active medications (drug texts
 * as written).
 */
export function checkMedication(
  drug: string,
  context: { allergies: AllergyEntry[]; activeMedications: string[] },
): MedicationCheck {
  const drugText = drug.replace(/\s+/g, ' ').trim();
  if (!drugText) return { alerts: [], uncoded: [], omitted: 0 };
  const mentions = findSubstances(drugText);
  const interactions = interactionAlerts(mentions, context.activeMedications);
  const { alerts, omitted } = dedupeAlerts([...allergyAlerts(drugText, mentions, context.allergies), ...interactions.found]);
  return { alerts, uncoded: [...(mentions.length ? [] : [drugText]), ...interactions.uncoded], omitted };
}

/** The alerts of checkMedication: stop, warning, info. */
export function medicationAlerts(
  drug: string,
  context: { allergies: AllergyEntry[]; activeMedications: string[] },
): MedicationAlert[] {
  return checkMedication(drug, context).alerts;
}
