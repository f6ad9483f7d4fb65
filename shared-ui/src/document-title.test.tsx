import { render, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { act } from 'react';
import { RouteTitle, documentTitle, usePageSubject } from './DocumentTitle';

test('a title names the page, then whom it is about, then the product', () => {
  expect(documentTitle('Medical record', 'Maria Lopez')).toBe('Medical record — Maria Lopez — CareLoop');
  expect(documentTitle('Files', undefined)).toBe('Files — CareLoop');
  expect(documentTitle(undefined)).toBe('CareLoop');
});

let setName: (name: string | undefined) => void = () => {};
function PatientView() {
  const [name, set] = useState<string | undefined>();
  setName = set;
  usePageSubject(name);
  return <p>view</p>;
}

test("a view adds its person once known, and the route's title comes back when it goes", async () => {
  const { unmount } = render(
    <RouteTitle title="Medical record">
      <PatientView />
    </RouteTitle>,
  );
  await waitFor(() => expect(document.title).toBe('Medical record — CareLoop'));
  act(() => setName('Maria Lopez'));
  await waitFor(() => expect(document.title).toBe('Medical record — Maria Lopez — CareLoop'));
  act(() => setName(undefined));
  await waitFor(() => expect(document.title).toBe('Medical record — CareLoop'));
  unmount();
});

function Row() {
  usePageSubject(undefined);
  return <li>row</li>;
}

test("a part of the page without a subject does not take the title's subject away", async () => {
  const page = (rows: boolean) => (
    <RouteTitle title="Medical records">
      <PatientView />
      {rows && (
        <ul>
          <Row />
          <Row />
        </ul>
      )}
    </RouteTitle>
  );
  const { rerender } = render(page(false));
  act(() => setName('Maria Lopez'));
  await waitFor(() => expect(document.title).toBe('Medical records — Maria Lopez — CareLoop'));
  // rows that name no one arrive after the subject (a list loading later)
  rerender(page(true));
  expect(document.title).toBe('Medical records — Maria Lopez — CareLoop');
});
