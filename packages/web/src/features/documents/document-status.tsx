import { Alert, Group, List, Loader, Text } from '@mantine/core';
import { CircleAlert, CircleCheck } from 'lucide-react';
import type { DocumentDetailDto } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { isProcessing } from './documents-api.ts';

/** The processing status line: queued, extracting, OCR page n of m, summarising, done, or the failure and its steps. */
export function DocumentStatus({ doc }: { doc: DocumentDetailDto }) {
  if (doc.status === 'failed' && doc.error) {
    return (
      <Alert color="red" icon={<CircleAlert size={18} />} role="alert" title={MSG.courses.status.failed}>
        <Text size="sm">{doc.error.message}</Text>
        {doc.error.steps.length > 0 && (
          <List size="sm" mt="xs" type="ordered">
            {doc.error.steps.map((s) => (
              <List.Item key={s}>{s}</List.Item>
            ))}
          </List>
        )}
      </Alert>
    );
  }
  const text =
    doc.status === 'ocr' && doc.progress
      ? MSG.courses.ocrPage(doc.progress.page, doc.progress.pages)
      : MSG.courses.status[doc.status];
  return (
    <Group gap="xs" role="status" aria-live="polite" data-testid="document-status">
      {isProcessing(doc.status) ? (
        <Loader size="xs" aria-hidden />
      ) : doc.status === 'done' ? (
        <CircleCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
      ) : null}
      <Text size="sm">
        {MSG.courses.statusLabel}: {text}
      </Text>
    </Group>
  );
}
