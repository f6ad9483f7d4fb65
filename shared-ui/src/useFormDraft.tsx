import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from '@careloop/shared-router';
import { DRAFT_CHANGED, type Draft, type DraftForm } from '@careloop/shared-contracts';
import { discardDraft, draftsKey, fetchDraft, httpStatus, saveDraft } from '@careloop/shared-auth';
import { Button, Row } from './components';
import { useClinicTime } from './dates';
import { theme } from './theme';

/** How long typing pauses before what was typed is sent as the draft. */
export const DRAFT_SAVE_DELAY_MS = 800;

/** Navigation state of a link that resumes a draft without asking (the notice after sign-in). */
export const RESUME_DRAFT = { resumeDraft: true } as const;

/** The draft's values laid over the form's defaults: a field added since the draft was saved keeps its default. */
function overDefaults(defaults: unknown, values: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(defaults) || !isObject(values)) return values === undefined ? defaults : values;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(values)) merged[key] = overDefaults(defaults[key], value);
  return merged;
}

type Phase = 'loading' | 'offered' | 'saving' | 'conflict' | 'stopped';
type Status = { savedAt: string } | { failed: string } | null;

/** The draft a save may replace: the one this page last saw (its savedAt; null: none), or any ('any': this page's version chosen). */
type BasedOn = string | null | 'any';

/**
 * A long form's draft, kept by the api (shared-auth drafts.ts) as the doctor types: sent after a
 * pause in typing, at each step, and as the page goes. Opening the form again — after any sign-out,
 * in another tab, on another device — offers it back ("Restore your unsaved draft from …?"), or
 * restores it at once, at its step, when the form was opened with RESUME_DRAFT. Nothing is saved
 * before the offer is answered or while nothing was typed, so an untouched form never overwrites a
 * draft. Sending the form deletes its draft on the server; `clearDraft` makes sure no save still
 * on its way brings it back.
 */
export function useFormDraft<Values extends FieldValues>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any resolver output
  form: UseFormReturn<Values, any, any>,
  where: {
    form: DraftForm;
    patientId: string;
    /** the doctor is known to be assigned to the patient (their profile loaded) */
    ready: boolean;
    /** the step the form shows, kept with the draft (0 for a one-page form) */
    step?: number;
    onStepRestored?(step: number): void;
  },
): { restorePrompt: ReactNode; draftStatus: ReactNode; clearDraft(): void } {
  const { form: formName, patientId, ready } = where;
  const resume = (useLocation().state as { resumeDraft?: unknown } | null)?.resumeDraft === true;
  const queryClient = useQueryClient();
  const { format } = useClinicTime();
  const [phase, setPhase] = useState<Phase>('loading');
  const [offer, setOffer] = useState<Draft | null>(null);
  const [status, setStatus] = useState<Status>(null);

  // Refs: the save runs from timers and page events, outside React's render.
  const phaseRef = useRef<Phase>('loading');
  const typed = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  const basedOn = useRef<BasedOn>(null);
  const step = useRef(where.step ?? 0);
  step.current = where.step ?? 0;
  const onStepRestored = useRef(where.onStepRestored);
  onStepRestored.current = where.onStepRestored;

  const moveTo = (next: Phase) => {
    phaseRef.current = next;
    setPhase(next);
  };

  function flush(keepalive = false) {
    clearTimeout(timer.current);
    timer.current = undefined;
    if (phaseRef.current !== 'saving' || !typed.current) return;
    const values = form.getValues() as Record<string, unknown>;
    const at = step.current;
    const send = () => {
      const seen = basedOn.current;
      return saveDraft(formName, patientId, { values, step: at, ...(seen === 'any' ? {} : { basedOn: seen }) }, keepalive);
    };
    // One after the other: a slow save never lands after a newer one, and each is based on the last.
    // As the page goes, at once: a save chained behind one still on its way would never start.
    inFlight.current = (keepalive ? send() : inFlight.current.then(send)).then(
      (savedAt) => {
        basedOn.current = savedAt;
        setStatus({ savedAt });
        void queryClient.invalidateQueries({ queryKey: [...draftsKey, 'list'] });
      },
      (err: unknown) => {
        const code = httpStatus(err);
        // Saved from another tab or device since this page saw it: never replaced unseen.
        if (code === 409) return moveTo('conflict');
        // 403/404: the access ended; saving again cannot succeed (sending the form will say why).
        if (code === 403 || code === 404) moveTo('stopped');
        setStatus({ failed: code === 403 || code === 404 ? 'no access' : 'not saved' });
      },
    );
  }
  const schedule = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, DRAFT_SAVE_DELAY_MS);
  };

  // The draft on file, once the doctor is known to be assigned.
  useEffect(() => {
    if (!ready) return;
    let live = true;
    moveTo('loading');
    fetchDraft(formName, patientId).then(
      (draft) => {
        // gone, or the form was sent meanwhile: nothing to offer or save
        if (!live || phaseRef.current === 'stopped') return;
        if (draft && resume) restore(draft);
        else if (draft) {
          setOffer(draft);
          moveTo('offered');
        } else {
          basedOn.current = null;
          moveTo('saving');
          if (typed.current) flush();
        }
      },
      () => {
        if (!live || phaseRef.current === 'stopped') return;
        // Not knowing whether a draft exists, saving could overwrite it: say so and keep the page's typing.
        moveTo('stopped');
        setStatus({ failed: 'not loaded' });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per form and patient
  }, [ready, formName, patientId]);

  // Every change is saved after a pause; a change of step at once.
  useEffect(() => {
    const subscription = form.watch((_values, { name, type }) => {
      // Typing only: not a reset (the restore itself) nor a value the page filled in (allergies on file).
      if (!name || type !== 'change') return;
      typed.current = true;
      if (phaseRef.current === 'saving') schedule();
    });
    return () => subscription.unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form is stable
  }, [form]);
  useEffect(() => {
    if (typed.current) flush();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a change of step only
  }, [where.step]);

  // Leaving the page or the form: what the pause had not sent yet goes now.
  useEffect(() => {
    const onHide = () => timer.current !== undefined && flush(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      if (timer.current !== undefined) flush(true);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- flush reads refs
  }, []);

  function restore(draft: Draft) {
    basedOn.current = draft.savedAt;
    form.reset(overDefaults(form.formState.defaultValues, draft.values) as Values);
    onStepRestored.current?.(draft.step);
    typed.current = false;
    setOffer(null);
    setStatus({ savedAt: draft.savedAt });
    moveTo('saving');
  }
  function discard() {
    basedOn.current = offer?.savedAt ?? null;
    setOffer(null);
    moveTo('saving');
    // What was typed while the offer showed becomes the draft; otherwise the old one goes.
    if (typed.current) flush();
    else
      inFlight.current = inFlight.current
        .then(() => discardDraft(formName, patientId))
        .then(() => void (basedOn.current = null))
        .catch(() => undefined);
    void queryClient.invalidateQueries({ queryKey: [...draftsKey, 'list'] });
  }

  const restorePrompt =
    phase === 'offered' && offer ? (
      <div role="region" aria-label="Unsaved draft" style={{ margin: '0 0 1rem' }}>
        <p style={{ margin: '0 0 0.5rem', fontWeight: 600 }}>Restore your unsaved draft from {format(offer.savedAt)}?</p>
        <Row>
          <Button type="button" onClick={() => restore(offer)}>
            Restore
          </Button>
          <Button type="button" $variant="secondary" onClick={discard}>
            Discard
          </Button>
        </Row>
      </div>
    ) : null;

  let draftStatus: ReactNode = null;
  if (phase === 'conflict')
    draftStatus = (
      <div role="status" style={{ margin: '0.5rem 0 0', fontSize: '0.85rem' }}>
        <p style={{ margin: '0 0 0.5rem' }}>
          {DRAFT_CHANGED}. What you type here is not saved as the draft until you choose: reload to continue from that draft, or
          keep this page&apos;s version instead.
        </p>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => {
            basedOn.current = 'any';
            moveTo('saving');
            typed.current = true;
            flush();
          }}
        >
          Keep this page&apos;s version
        </Button>
      </div>
    );
  else if (status && 'savedAt' in status)
    draftStatus = (
      <p style={{ margin: '0.5rem 0 0', fontSize: '0.85rem', color: theme.color.muted }}>Draft saved {format(status.savedAt)}</p>
    );
  else if (status)
    draftStatus = (
      <p role="status" style={{ margin: '0.5rem 0 0', fontSize: '0.85rem' }}>
        {status.failed === 'not loaded'
          ? 'Your saved draft could not be checked, so this form is not being kept as a draft. Reload to try again.'
          : status.failed === 'no access'
            ? 'This draft can no longer be saved: you no longer have access to this patient.'
            : 'Your draft could not be saved just now; it is still on this page and will be saved at your next change.'}
      </p>
    );

  return {
    restorePrompt,
    draftStatus,
    clearDraft() {
      moveTo('stopped');
      clearTimeout(timer.current);
      timer.current = undefined;
      // The send deleted the draft; a save that was already on its way must not bring it back.
      void inFlight.current
        .then(() => discardDraft(formName, patientId))
        .catch(() => undefined)
        .then(() => queryClient.invalidateQueries({ queryKey: draftsKey }));
    },
  };
}
