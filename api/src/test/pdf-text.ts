import { inflateSync } from 'node:zlib';

/** The standard fonts' WinAnsi encoding: Latin-1 but for a few punctuation marks. */
const WIN_ANSI: Record<string, string> = {
  '\x91': '‘',
  '\x92': '’',
  '\x93': '“',
  '\x94': '”',
  '\x96': '–',
  '\x97': '—',
  '\x85': '…',
};
const winAnsi = (bytes: Buffer) => bytes.toString('latin1').replace(/[\x85\x91-\x97]/g, (c) => WIN_ANSI[c] ?? c);

/**
 * The text a PDF written by pdfkit shows: its content streams inflated (pdfkit compresses them)
 * and the hex strings of each TJ array joined. Enough for tests of our own PDFs; no general parser.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const tj of content.matchAll(/\[((?:<[0-9a-f]*>\s*-?[\d.]*\s*)+)\] TJ/gi)) {
      const hex = [...tj[1].matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]).join('');
      lines.push(winAnsi(Buffer.from(hex, 'hex')));
    }
  }
  // a fact's bold label and its value are two runs of one line
  return lines.join('\n').replace(/: \n/g, ': ');
}

/** Pages of a PDF pdfkit wrote: its page tree's /Count. */
export const pageCount = (pdf: Buffer) => Number(pdf.toString('latin1').match(/\/Type \/Pages\s*\/Count (\d+)/)?.[1] ?? 0);
