/*
 * Unsaved drafts of long forms (the eight-step record, a prescription), kept so that leaving the
 * form (another page, a reload) loses no typing. Kept in sessionStorage — this tab only, gone when
 * it closes — as plain JSON, so never left behind a signed-out screen: an explicit logout clears
 * every draft in every tab, an automatic one (idle timer, or the api's "Session expired") this
 * tab's (signed-out.ts).
 */

const PREFIX = 'careloop.draft:';
/** Written on an explicit logout; other tabs clear their drafts when they see it change. */
const CLEARED_KEY = 'careloop.draftsCleared';

export interface StoredDraft<Values = unknown> {
  values: Values;
  /** epoch ms of the last change */
  savedAt: number;
}

/** One draft per account, form and patient: another account signing in here never sees it. */
export const draftKey = (accountId: string, form: string, patientId: string) => `${PREFIX}${accountId}:${form}:${patientId}`;

export function readDraft<Values>(key: string): StoredDraft<Values> | null {
  try {
    const raw = sessionStorage.getItem(key);
    const draft = raw ? (JSON.parse(raw) as StoredDraft<Values>) : null;
    return draft && typeof draft.savedAt === 'number' && draft.values !== undefined ? draft : null;
  } catch {
    return null;
  }
}

export function saveDraft(key: string, values: unknown, savedAt = Date.now()): void {
  try {
    sessionStorage.setItem(key, JSON.stringify({ values, savedAt }));
  } catch {
    // storage full or disabled: the form still works, only without a draft
  }
}

export function removeDraft(key: string): void {
  sessionStorage.removeItem(key);
}

/** Clears this tab's drafts. */
export function clearDraftsHere(): void {
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
  }
}

/** An explicit logout: every draft of this tab and of the other tabs is cleared. */
export function clearAllDrafts(): void {
  clearDraftsHere();
  try {
    localStorage.setItem(CLEARED_KEY, String(Date.now()));
  } catch {
    // other tabs keep theirs until they close
  }
}

let listening = false;
/** Called once at start-up: an explicit logout in another tab clears this tab's drafts too. */
export function listenForDraftClearing(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('storage', (e) => {
    if (e.key === CLEARED_KEY) clearDraftsHere();
  });
}
