import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DraftForm, DraftSave } from '@careloop/shared-contracts';
import { call } from './client';

/*
 * A doctor's drafts of long forms (the eight-step record, a prescription) are kept by the api as
 * they are typed (shared-contracts drafts.ts): nothing of them stays in the browser, so a sign-out
 * of any kind leaves no patient data behind, and the next sign-in — in any tab, on any device —
 * finds them again.
 */

/** Every draft query: the list the notice shows, and each form's draft. */
export const draftsKey = ['drafts'] as const;

/** GET /doctor/drafts: the doctor's unsent drafts, the most recently saved first. */
export const useDrafts = (enabled = true) =>
  useQuery({
    queryKey: [...draftsKey, 'list'],
    queryFn: async () => (await call('doctorListDrafts')).drafts,
    enabled,
  });

/** GET /doctor/drafts/{form}/{patientId}: the draft with its values, or null. */
export const fetchDraft = async (form: DraftForm, patientId: string) =>
  (await call('doctorDraft', { params: { form, patientId } })).draft;

/**
 * PUT /doctor/drafts/{form}/{patientId}: answers when it was saved. `keepalive` lets the browser
 * finish it while the page unloads (a tab closed mid-sentence).
 */
export const saveDraft = async (form: DraftForm, patientId: string, draft: DraftSave, keepalive = false) =>
  (await call('doctorSaveDraft', { params: { form, patientId }, body: draft, keepalive })).savedAt;

/** DELETE /doctor/drafts/{form}/{patientId}; finished by the browser even if the page goes at once. */
export const discardDraft = (form: DraftForm, patientId: string) =>
  call('doctorDiscardDraft', { params: { form, patientId }, keepalive: true });

/** Discards a draft from the list; the list is read again. */
export function useDiscardDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form, patientId }: { form: DraftForm; patientId: string }) => discardDraft(form, patientId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: draftsKey }),
  });
}
