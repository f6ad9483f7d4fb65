import { ButtonLink, Card, Page, RouteTitle } from '@careloop/shared-ui';

export function NotFound() {
  return (
    <RouteTitle title="Page not found">
      <Page>
        <Card>
          <h1>Page not found</h1>
          <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
          <ButtonLink to="/">Go to the home page</ButtonLink>
        </Card>
      </Page>
    </RouteTitle>
  );
}
