import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { RecordLine } from './record-lines';

export interface PdfOptions {
  /** false in tests, so the page text can be read from the bytes */
  compress?: boolean;
  /** the document's creation date (PDF metadata) */
  createdAt: Date;
}

/**
 * DejaVu Sans, embedded (pdfkit subsets it to the glyphs used): the standard Helvetica has no ≥, ≤
 * and most letters outside Latin-1, which it printed as "e and "d. Resolved from the package, so
 * the same files serve dist and the tests.
 */
let fonts: { regular: Buffer; bold: Buffer } | undefined;
const bodyFonts = () =>
  (fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  });

const SIZE: Record<RecordLine['kind'], number> = { title: 18, heading: 14, subheading: 12, fact: 10, text: 10, note: 9 };

/** Lays the health record's lines out on A4 pages in DejaVu Sans (regular and bold). */
export function renderHealthRecordPdf(lines: RecordLine[], opts: PdfOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      compress: opts.compress ?? true,
      info: { Title: 'CareLoop health record', Creator: 'CareLoop', CreationDate: opts.createdAt },
    });
    const { regular, bold: boldFont } = bodyFonts();
    doc.registerFont('Body', regular);
    doc.registerFont('Body-Bold', boldFont);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const line of lines) {
      const bold = line.kind === 'title' || line.kind === 'heading' || line.kind === 'subheading';
      if (line.kind === 'heading') doc.moveDown(0.8);
      if (line.kind === 'subheading') doc.moveDown(0.4);
      doc.fontSize(SIZE[line.kind]).fillColor(line.kind === 'note' ? '#555555' : '#000000');
      if (line.kind === 'fact') {
        doc.font('Body-Bold').text(`${line.label}: `, { continued: true }).font('Body').text(line.text);
      } else {
        doc.font(bold ? 'Body-Bold' : 'Body').text(line.text);
      }
    }
    doc.end();
  });
}
