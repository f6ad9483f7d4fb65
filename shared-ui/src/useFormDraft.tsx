import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { draftKey, readDraft, removeDraft, saveDraft, type StoredDraft } from '@careloop/shared-auth';
import { Button, Row } from './components';
import { formatDateTime } from './dates';

/**
 * A long form's unsaved draft (shared-auth/drafts.ts): saved on every change, offered back
 * ("Restore your unsaved draft from …?") when the same account opens the same form for the same
 * patient again — after an automatic logoff, say. Nothing is saved before the offer is answered,
 * so an untouched form never overwrites a draft. `clearDraft` after a successful submit.
 */
export function useFormDraft<Values extends FieldValues>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any resolver output
  form: UseFormReturn<Values, any, any>,
  where: { accountId: string | undefined; form: string; patientId: string },
): { restorePrompt: ReactNode; clearDraft(): void } {
  const key = where.accountId ? draftKey(where.accountId, where.form, where.patientId) : null;
  const [offer, setOffer] = useState<StoredDraft<Values> | null>(null);
  const [answered, setAnswered] = useState<string | null>(null);

  useEffect(() => {
    if (!key) return;
    const draft = readDraft<Values>(key);
    setOffer(draft);
    setAnswered(draft ? null : key);
  }, [key]);

  // Typing can come before saving starts (the account or the offer still loading, or the commit
  // between the two effects): a field changed since mount is saved the moment saving starts.
  const typed = useRef(false);
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name) typed.current = true;
    });
    return () => subscription.unsubscribe();
  }, [form]);

  useEffect(() => {
    if (!key || answered !== key) return;
    if (typed.current) saveDraft(key, form.getValues());
    const subscription = form.watch((values) => saveDraft(key, values));
    return () => subscription.unsubscribe();
  }, [form, key, answered]);

  const answer = (restore: boolean) => {
    if (!key || !offer) return;
    if (restore) form.reset(offer.values);
    else removeDraft(key);
    setOffer(null);
    setAnswered(key);
  };

  const restorePrompt = offer ? (
    <div role="region" aria-label="Unsaved draft" style={{ margin: '0 0 1rem' }}>
      <p style={{ margin: '0 0 0.5rem', fontWeight: 600 }}>Restore your unsaved draft from {formatDateTime(offer.savedAt)}?</p>
      <Row>
        <Button type="button" onClick={() => answer(true)}>
          Restore
        </Button>
        <Button type="button" $variant="secondary" onClick={() => answer(false)}>
          Discard
        </Button>
      </Row>
    </div>
  ) : null;

  return { restorePrompt, clearDraft: () => key && removeDraft(key) };
}
