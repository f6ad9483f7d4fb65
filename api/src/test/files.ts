/** A small but real PDF: `%PDF-` header, one object, trailer, `%%EOF`. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** The path and query of an absolute URL, for app.inject. */
export function local(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
