import { useEffect, useRef } from 'react';
import { Loader, Paper, Stack, Text } from '@mantine/core';
import type { DocumentPageDto } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { useDocumentPages } from './documents-api.ts';

export interface TextFocus {
  page: number;
  start: number;
  end: number;
  /** Changes on every click, so the same citation scrolls again. */
  nonce: number;
}

function PageText({ page, focus }: { page: DocumentPageDto; focus: TextFocus | null }) {
  const markRef = useRef<HTMLElement>(null);
  const hit = focus && focus.page === page.page ? focus : null;
  useEffect(() => {
    if (hit) markRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [hit]);
  return (
    <Paper withBorder p="sm" component="section" aria-label={page.label}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
        {page.label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {hit ? (
          <>
            {page.text.slice(0, hit.start)}
            <mark ref={markRef} data-testid="cited-passage">
              {page.text.slice(hit.start, hit.end)}
            </mark>
            {page.text.slice(hit.end)}
          </>
        ) : (
          page.text
        )}
      </Text>
    </Paper>
  );
}

/** The extracted text, page by page; a citation scrolls to its passage and highlights it. */
export function DocumentText({ documentId, focus }: { documentId: string; focus: TextFocus | null }) {
  const pages = useDocumentPages(documentId, true);
  return (
    <Stack gap="xs">
      {pages.isPending ? (
        <Loader size="sm" aria-label={MSG.loading.loading} />
      ) : (
        (pages.data ?? []).map((p) => <PageText key={p.page} page={p} focus={focus} />)
      )}
    </Stack>
  );
}
