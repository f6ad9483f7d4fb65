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

/** UTF-16BE hex, as a CMap writes it ("<0066 0069>" for the ligature "fi"). */
const hexText = (spaced: string) => {
  const hex = spaced.replace(/\s+/g, '');
  return hex.length % 4 === 0 ? String.fromCharCode(...(hex.match(/..../g) ?? []).map((h) => parseInt(h, 16))) : '';
};

/** A ToUnicode CMap as pdfkit writes it (bfrange lists and bfchar pairs): 2-byte code → text. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const line of block[1].split('\n')) {
      const r = /<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f]+>)/i.exec(line);
      if (!r) continue;
      const [start, end] = [parseInt(r[1], 16), parseInt(r[2], 16)];
      if (r[3].startsWith('[')) [...r[3].matchAll(/<([0-9a-f\s]*)>/gi)].forEach((u, i) => map.set(start + i, hexText(u[1])));
      else for (let c = start; c <= end; c++) map.set(c, String.fromCodePoint(parseInt(r[3].slice(1, -1), 16) + c - start));
    }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const c of block[1].matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>/gi)) map.set(parseInt(c[1], 16), hexText(c[2]));
  return map;
}

/** Each object's text and, inflated where pdfkit compressed it, its stream. */
function objectsOf(pdf: Buffer): Map<string, { dict: string; stream?: string }> {
  const raw = pdf.toString('latin1');
  const objects = new Map<string, { dict: string; stream?: string }>();
  for (const m of raw.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2];
    const at = body.search(/stream\r?\n/);
    if (at < 0) {
      objects.set(m[1], { dict: body });
      continue;
    }
    const start = m.index + m[0].indexOf(body) + body.indexOf('\n', at) + 1;
    const bytes = pdf.subarray(start, raw.indexOf('endstream', start));
    let stream: string;
    try {
      stream = inflateSync(bytes).toString('latin1');
    } catch {
      stream = bytes.toString('latin1');
    }
    objects.set(m[1], { dict: body.slice(0, at), stream });
  }
  return objects;
}

/**
 * The text a PDF written by pdfkit shows: its content streams inflated (pdfkit compresses them)
 * and the hex strings of each TJ array decoded, through the font's ToUnicode CMap for an embedded
 * (subset) font, or WinAnsi for a standard one. Enough for tests of our own PDFs; no general parser.
 */
export function pdfText(pdf: Buffer): string {
  const objects = objectsOf(pdf);
  // resource name (/F2) → the font's ToUnicode map (none for a standard font)
  const fonts = new Map<string, Map<number, string> | undefined>();
  for (const { dict } of objects.values())
    for (const block of dict.matchAll(/\/Font\s*<<([^>]*)>>/g))
      for (const f of block[1].matchAll(/\/(\S+)\s+(\d+) 0 R/g)) {
        const cmapRef = objects.get(f[2])?.dict.match(/\/ToUnicode (\d+) 0 R/)?.[1];
        const cmap = cmapRef ? objects.get(cmapRef)?.stream : undefined;
        fonts.set(f[1], cmap ? toUnicode(cmap) : undefined);
      }
  const lines: string[] = [];
  for (const { stream } of objects.values()) {
    if (!stream || !/\bTJ\b/.test(stream)) continue;
    let font: Map<number, string> | undefined;
    for (const op of stream.matchAll(/\/(\S+) [\d.]+ Tf|\[((?:<[0-9a-f]*>\s*-?[\d.]*\s*)+)\] TJ/gi)) {
      if (op[1] !== undefined) {
        font = fonts.get(op[1]);
        continue;
      }
      const hex = [...op[2].matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]).join('');
      lines.push(
        font
          ? (hex.match(/..../g) ?? []).map((code) => font!.get(parseInt(code, 16)) ?? '\uFFFD').join('')
          : winAnsi(Buffer.from(hex, 'hex')),
      );
    }
  }
  // a fact's bold label and its value are two runs of one line
  return lines.join('\n').replace(/: \n/g, ': ');
}

/** Pages of a PDF pdfkit wrote: its page tree's /Count. */
export const pageCount = (pdf: Buffer) => Number(pdf.toString('latin1').match(/\/Type \/Pages\s*\/Count (\d+)/)?.[1] ?? 0);
