import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '@careloop/shared-router';
import { Banner } from './components';

/** How long a "saved" message stays. */
const SAVED_NOTICE_MS = 6000;

/** What a save that moves on to another page says there: `navigate(to, { state: savedState('…') })`. */
export const savedState = (text: string) => ({ saved: text });

/**
 * Shows the text a save left in the navigation state ("Your profile was saved."), as a status that
 * goes after a few seconds; a page that can be arrived at after a save renders one. The text is
 * taken out of the history entry as it is shown, so a reload or Back does not say it again.
 */
export function SavedNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { saved?: unknown } | null;
  const text = typeof state?.saved === 'string' ? state.saved : null;
  const [shown, setShown] = useState(text);
  useEffect(() => {
    if (!text) return;
    setShown(text);
    const { saved: _said, ...rest } = state ?? {};
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: Object.keys(rest).length ? rest : null },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per save
  }, [text]);
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), SAVED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [shown]);
  return shown ? <Banner tone="success">{shown}</Banner> : null;
}
