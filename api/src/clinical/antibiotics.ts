import { findSubstances } from './substance-matcher';
import { ingredientById, ingredientsOf } from './vocabulary';

/*
 * An antibiotic prescribed is a sign that someone suspects an infection (NICE NG51 1.1.1): the
 * sepsis screen counts it. Antibacterials for systemic use are WHO ATC J01, antimycobacterials J04,
 * and metronidazole / tinidazole are also P01AB (nitroimidazoles).
 */
const ANTIBACTERIAL_ATC = /^(?:J01|J04|P01AB)/;

/** True when the drug text names an antibacterial ingredient (or a product containing one). */
export function isAntibiotic(drugText: string): boolean {
  return findSubstances(drugText).some((m) =>
    ingredientsOf(m.target).some((id) => ingredientById(id)?.atc?.some((code) => ANTIBACTERIAL_ATC.test(code))),
  );
}
