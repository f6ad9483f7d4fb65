import { Button, Row } from './components';

/** Paging through a newest-first list: Newer, "Page n of m", Older; nothing when it fits on one page. */
export function NewerOlder({ page, pages, setPage }: { page: number; pages: number; setPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <Row style={{ marginTop: '1rem' }}>
      <Button type="button" $variant="secondary" disabled={page === 1} onClick={() => setPage(page - 1)}>
        Newer
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button type="button" $variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
        Older
      </Button>
    </Row>
  );
}
