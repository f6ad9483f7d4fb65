import { Page, TwoFactorSettings } from '@careloop/shared-ui';

export default function EnableTwoFactor() {
  return (
    <Page>
      <TwoFactorSettings role="doctor" />
    </Page>
  );
}
