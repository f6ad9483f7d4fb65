import { Fragment, type ReactNode } from 'react';

/** **bold** runs inside one line, as React elements. */
function inline(line: string): ReactNode[] {
  return line
    .split(/(\*\*[^*]+\*\*)/g)
    .map((part, i) =>
      part.startsWith('**') && part.endsWith('**') && part.length > 4 ? <strong key={i}>{part.slice(2, -2)}</strong> : part,
    );
}

/**
 * The summary's markdown (SPEC §9): `## ` headings and `**text**` bold, newlines as line breaks.
 * Rendered as React elements — never as injected HTML — so text in a record cannot become markup.
 */
export function SummaryText({ markdown }: { markdown: string }) {
  const lines = markdown.split(/\r?\n/);
  return (
    <div data-testid="summary">
      {lines.map((line, i) => {
        const heading = /^##\s+(.*)$/.exec(line);
        if (heading)
          return (
            <h3 key={i} style={{ fontSize: '1rem', margin: '0.9rem 0 0.2rem' }}>
              {inline(heading[1])}
            </h3>
          );
        // A blank line before a heading: the heading's own margin already separates the sections.
        if (line.trim() === '' && /^##\s/.test(lines[i + 1] ?? '')) return null;
        return (
          <Fragment key={i}>
            {inline(line)}
            {i < lines.length - 1 && <br />}
          </Fragment>
        );
      })}
    </div>
  );
}
