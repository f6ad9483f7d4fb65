import { useId, useState } from 'react';
import { Link } from '@careloop/shared-router';
import { PDF_MIME } from '@careloop/shared-contracts';
import { putFile, requestUploadUrl, usePatientProfile } from '@careloop/shared-auth';
import { Banner, Button, Heading, Narrow, Page, theme } from '@careloop/shared-ui';

type State =
  | { step: 'idle' }
  | { step: 'no-file' }
  | { step: 'sending'; progress: number }
  | { step: 'done' }
  | { step: 'failed'; why?: string };

/** SPEC §8's failure text, then why when we know it. */
const FAILED = 'Could not upload your file';
export const NOT_A_PDF = `${FAILED}. Only PDF files can be uploaded.`;
export const CHOOSE_A_PDF = 'Choose a PDF first';

/** /patient/dashboard/medical-files/upload: one PDF, straight to storage through a one-time URL. */
export default function UploadFile() {
  const { data } = usePatientProfile();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ step: 'idle' });
  const noFileId = useId();

  async function upload() {
    // Nothing is sent without a file, and the page says what is missing (SPEC §5 sent nothing, silently).
    if (!file) {
      setState({ step: 'no-file' });
      return;
    }
    if (!data) return;
    if (file.type !== PDF_MIME) {
      setState({ step: 'failed', why: NOT_A_PDF });
      return;
    }
    setState({ step: 'sending', progress: 0 });
    try {
      const { uploadUrl } = await requestUploadUrl(data.patient._id, file.name);
      await putFile(uploadUrl, file, (progress) => setState({ step: 'sending', progress }));
      setState({ step: 'done' });
    } catch {
      setState({ step: 'failed' });
    }
  }

  return (
    <Page>
      <Narrow>
        <Heading>Upload a medical file</Heading>
        <p>PDF only, up to 20 MB: reports, scans, discharge letters.</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void upload();
          }}
        >
          <label style={{ display: 'block', fontWeight: 600, marginBottom: '1rem' }}>
            PDF file
            <input
              type="file"
              aria-invalid={state.step === 'no-file' || undefined}
              aria-describedby={state.step === 'no-file' ? noFileId : undefined}
              accept={`${PDF_MIME},.pdf`}
              style={{ display: 'block', marginTop: '0.4rem' }}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setState({ step: 'idle' });
              }}
            />
          </label>
          {state.step === 'no-file' && (
            <p id={noFileId} role="alert" style={{ color: theme.color.danger, margin: '-0.5rem 0 1rem' }}>
              {CHOOSE_A_PDF}
            </p>
          )}
          {state.step === 'sending' && (
            <>
              <Banner tone="info">Uploading...</Banner>
              <progress
                aria-label="Upload progress"
                max={100}
                value={Math.round(state.progress * 100)}
                style={{ width: '100%' }}
              />
            </>
          )}
          {state.step === 'done' && <Banner tone="success">File upload successful</Banner>}
          {state.step === 'failed' && <Banner tone="error">{state.why ?? FAILED}</Banner>}
          <Button type="submit" busy={state.step === 'sending'}>
            Upload
          </Button>
        </form>
        <p>
          <Link to="/patient/dashboard/medical-files">See your files</Link>
        </p>
      </Narrow>
    </Page>
  );
}
