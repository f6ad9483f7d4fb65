import { z } from 'zod';
import { endpoint } from '../endpoint';
import { DraftAnswer, DraftList, DraftParams, DraftSave, DraftSaved } from '../drafts';

/**
 * A doctor's drafts of long forms (api/src/modules/drafts; who may reach which:
 * api/src/access/drafts.ts). Only their author reaches a draft, and only while assigned to its
 * patient: a doctor whose access ended is told so (403), any other patient is 404.
 */
/** What the three endpoints of one draft share: its path, and who may call them. */
const oneDraft = {
  path: '/doctor/drafts/{form}/{patientId}',
  tags: ['doctor', 'drafts'],
  access: ['doctor'],
  params: DraftParams,
} as const;

export const DRAFT_ENDPOINTS = {
  doctorListDrafts: endpoint({
    method: 'GET',
    path: '/doctor/drafts',
    summary: "The caller's unsent drafts (form, patient, step, when saved), the most recent first",
    tags: ['doctor', 'drafts'],
    access: ['doctor'] as const,
    status: 200,
    response: DraftList,
    errors: [401, 403],
  }),
  doctorDraft: endpoint({
    method: 'GET',
    ...oneDraft,
    summary: "The caller's draft of a form for an assigned patient, with its values; null when there is none",
    status: 200,
    response: DraftAnswer,
    errors: [400, 401, 403, 404],
  }),
  doctorSaveDraft: endpoint({
    method: 'PUT',
    ...oneDraft,
    summary:
      'Keep what the caller has typed so far in a form for an assigned patient (replaces the earlier draft; 409 when it changed since basedOn)',
    body: DraftSave,
    status: 200,
    response: DraftSaved,
    errors: [400, 401, 403, 404, 409],
  }),
  doctorDiscardDraft: endpoint({
    method: 'DELETE',
    ...oneDraft,
    summary: "Discard the caller's draft of a form for a patient (none: nothing to do)",
    status: 204,
    response: z.undefined(),
    errors: [400, 401, 403],
  }),
};
