import { useEffect, useState } from 'react';
import { useLocation } from '@careloop/shared-router';
import styled from 'styled-components';
import { Banner, Button } from '@careloop/shared-ui';
import { newReleaseAvailable } from './releases';

/** Besides navigation and focus: a tab left open on one page still hears of a release, without a tight poll. */
export const RECHECK_EVERY_MS = 5 * 60 * 1000;

const Bar = styled.div`
  max-width: 1100px;
  margin: 0.75rem auto 0;
  padding: 0 1rem;
`;
const Row = styled.span`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
  flex-wrap: wrap;
`;

/** Offers a reload once a remote has a newer release than this tab runs; the person chooses when. */
export function NewVersionBanner() {
  const { pathname } = useLocation();
  const [available, setAvailable] = useState(false);

  useEffect(() => {
    if (available) return;
    let live = true;
    const check = () =>
      void newReleaseAvailable().then((isNew) => {
        if (live && isNew) setAvailable(true);
      });
    check(); // on every navigation
    window.addEventListener('focus', check);
    const timer = window.setInterval(check, RECHECK_EVERY_MS);
    return () => {
      live = false;
      window.removeEventListener('focus', check);
      window.clearInterval(timer);
    };
  }, [pathname, available]);

  if (!available) return null;
  return (
    <Bar>
      <Banner tone="info">
        <Row>
          A new version of CareLoop is available
          <Button type="button" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Row>
      </Banner>
    </Bar>
  );
}
