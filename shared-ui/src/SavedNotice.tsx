import { useEffect, useState } from 'react';
import { useLocation } from '@careloop/shared-router';
import { Banner } from './components';

/** How long a "saved" message stays. */
const SAVED_NOTICE_MS = 6000;

/** What a save that moves on to another page says there: `navigate(to, { state: savedState('…') })`. */
export const savedState = (text: string) => ({ saved: text });

/**
 * Shows the text a save left in the navigation state ("Your profile was saved."), as a status that
 * goes after a few seconds; a page that can be arrived at after a save renders one.
 */
export function SavedNotice() {
  const state = useLocation().state as { saved?: unknown } | null;
  const text = typeof state?.saved === 'string' ? state.saved : null;
  const [shown, setShown] = useState(text);
  useEffect(() => {
    setShown(text);
    if (!text) return;
    const timer = setTimeout(() => setShown(null), SAVED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return shown ? <Banner tone="success">{shown}</Banner> : null;
}
