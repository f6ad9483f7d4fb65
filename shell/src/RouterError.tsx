import { isRouteErrorResponse, useRouteError } from '@careloop/shared-router';
import { Card, Page } from '@careloop/shared-ui';

/** SPEC §8: the router's default screen for 400, 403, 404, 405 and thrown errors. */
export function RouterError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Page>
      <Card>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: 'italic' }}>{detail}</h3>
      </Card>
    </Page>
  );
}
