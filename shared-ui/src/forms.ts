/** "Cardiology, Internal medicine" → ['Cardiology', 'Internal medicine'] (SPEC §5). */
export const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const joinList = (items: readonly string[] | undefined): string => (items ?? []).join(', ');

type Plain = { [key: string]: unknown };

/**
 * Profile edit sends only what was filled in (SPEC §5): empty strings, empty lists and
 * nested objects left empty are dropped, recursively.
 */
export function withoutEmpty<T extends Plain>(value: T): Partial<T> {
  const out: Plain = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') {
      if (v.trim() !== '') out[key] = v;
    } else if (Array.isArray(v)) {
      if (v.length > 0) out[key] = v;
    } else if (v && typeof v === 'object') {
      const nested = withoutEmpty(v as Plain);
      if (Object.keys(nested).length > 0) out[key] = nested;
    } else if (v !== undefined && v !== null) {
      out[key] = v;
    }
  }
  return out as Partial<T>;
}
