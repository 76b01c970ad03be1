import { Mark } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Snippet } from '@studybuddy/shared/search';

/**
 * A passage with its matched words marked: the server sends ranges of plain text, and React renders them as text
 * nodes and <mark> elements (never as HTML), so nothing in a message or a name can become markup.
 */
export function Highlighted({ snippet }: { snippet: Snippet }) {
  const { text } = snippet;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of snippet.marks) {
    // Ranges out of order or out of the text are ignored rather than trusted.
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <Mark key={start} color="yellow">
        {text.slice(start, end)}
      </Mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return (
    <>
      {snippet.cutStart && '… '}
      {parts}
      {snippet.cutEnd && ' …'}
    </>
  );
}
