import type { FastifyInstance } from 'fastify';

/** A small but real PDF: `%PDF-` header, one object, trailer, `%%EOF`. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** The path and query of an absolute URL, for app.inject. */
export function local(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** A patient stores a PDF as the app does: a one-time upload URL, then the PUT to it; fails the test otherwise. */
export async function storePdf(t: { app: FastifyInstance }, patient: { id: string; token: string }, fileName: string) {
  const upload = await t.app.inject({
    method: 'GET',
    url: `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=${encodeURIComponent(fileName)}`,
    headers: { authorization: `Bearer ${patient.token}` },
  });
  expect(upload.statusCode).toBe(200);
  const put = await t.app.inject({
    method: 'PUT',
    url: local(upload.json().uploadUrl),
    headers: { 'content-type': 'application/pdf' },
    payload: PDF,
  });
  expect(put.statusCode).toBeLessThan(300);
}
