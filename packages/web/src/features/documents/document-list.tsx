import { ActionIcon, Badge, Group, Paper, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { Download } from 'lucide-react';
import { formatFileSize } from '@studybuddy/shared/documents';
import type { CourseDocumentDto } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { formatDate } from '../../lib/date-format.ts';
import { isProcessing } from './documents-api.ts';
import { TypeIcon } from './type-icon.tsx';

function StatusBadge({ doc }: { doc: CourseDocumentDto }) {
  if (doc.status === 'failed')
    return (
      <Badge color="red" variant="light">
        {MSG.courses.status.failed}
      </Badge>
    );
  if (isProcessing(doc.status)) {
    return (
      <Badge color="yellow" variant="light">
        {doc.progress ? MSG.courses.ocrPage(doc.progress.page, doc.progress.pages) : MSG.courses.status[doc.status]}
      </Badge>
    );
  }
  return null;
}

/** The documents of the course: icon by type, source tag, size, date, download link (requirements §2). */
export function DocumentList({
  documents,
  selectedId,
  onOpen,
}: {
  documents: CourseDocumentDto[];
  selectedId: string | null;
  onOpen: (id: string) => void;
}) {
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={MSG.courses.courseDocuments}>
      {documents.map((d) => (
        <Paper
          key={d.id}
          component="li"
          withBorder
          p="sm"
          bg={d.id === selectedId ? 'var(--sb-selected)' : undefined}
          data-testid="document-row"
        >
          <Group wrap="nowrap" gap="sm" align="center">
            <UnstyledButton
              onClick={() => onOpen(d.id)}
              style={{ flex: 1, minWidth: 0 }}
              aria-label={MSG.courses.open(d.name)}
            >
              <Group wrap="nowrap" gap="sm">
                <TypeIcon type={d.type} />
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} truncate>
                    {d.name}
                  </Text>
                  <Group gap="xs" wrap="wrap">
                    <Badge size="sm" variant="light" color={d.source === 'canvas' ? 'red' : 'indigo'}>
                      {d.source === 'canvas' ? MSG.courses.sourceCanvas : MSG.courses.sourceUploaded}
                    </Badge>
                    {d.moduleName && (
                      <Text size="xs" c="dimmed" truncate>
                        {d.moduleName}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {formatFileSize(d.size)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDate(d.createdAt)}
                    </Text>
                    <StatusBadge doc={d} />
                  </Group>
                </Stack>
              </Group>
            </UnstyledButton>
            <Tooltip label={MSG.courses.download}>
              <ActionIcon
                component="a"
                href={d.url}
                download={d.source === 'local' ? d.name : undefined}
                target={d.source === 'canvas' ? '_blank' : undefined}
                rel="noreferrer"
                variant="subtle"
                size="lg"
                aria-label={MSG.courses.downloadName(d.name)}
              >
                <Download size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
