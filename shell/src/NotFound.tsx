import { ButtonLink, Card, Page } from '@careloop/shared-ui';

export function NotFound() {
  return (
    <Page>
      <Card>
        <h1>Page not found</h1>
        <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
        <ButtonLink to="/">Go to the home page</ButtonLink>
      </Card>
    </Page>
  );
}
