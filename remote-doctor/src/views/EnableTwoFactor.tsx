import { Page, TwoFactorSettings } from 'shared-ui';

export default function EnableTwoFactor() {
  return (
    <Page>
      <TwoFactorSettings role="doctor" />
    </Page>
  );
}
