import { useState } from 'react';
import { fetchHealthRecordFhir, fetchHealthRecordPdf, healthRecordFileName } from '@careloop/shared-auth';
import { Banner, Button, Card, Row } from './components';

type Format = 'fhir' | 'pdf';

const FORMATS: Record<Format, { label: string; extension: 'json' | 'pdf'; fetch: () => Promise<Blob> }> = {
  fhir: { label: 'Download my health record (FHIR)', extension: 'json', fetch: fetchHealthRecordFhir },
  pdf: { label: 'Download as PDF', extension: 'pdf', fetch: fetchHealthRecordPdf },
};

export const DOWNLOAD_FAILED = 'Your health record could not be downloaded. Please try again.';

/** Saves a fetched file under its name: an object URL and a temporary link, the URL revoked after. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // the click has handed the file to the browser; revoking on the next tick lets it start
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The patient's own health record to take away (issue 15): the FHIR `$everything` Bundle as JSON
 * for another app, or the same content as a PDF for people. Fetched with the session's token
 * (a plain link would lack it); the api audits each download.
 */
export function HealthRecordDownload() {
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(format: Format) {
    const { extension, fetch } = FORMATS[format];
    setBusy(format);
    setError(null);
    try {
      saveFile(await fetch(), healthRecordFileName(extension));
    } catch {
      setError(DOWNLOAD_FAILED);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card aria-label="Download my health record">
      <Row>
        {(Object.keys(FORMATS) as Format[]).map((format) => (
          <Button key={format} type="button" $variant="secondary" disabled={busy !== null} onClick={() => void download(format)}>
            {FORMATS[format].label}
          </Button>
        ))}
      </Row>
      {busy && <Banner tone="info">Preparing your health record…</Banner>}
      {error && <Banner tone="error">{error}</Banner>}
    </Card>
  );
}
