import { useEffect, useRef, useState } from 'react';
import { Badge, Button, Divider, Drawer, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { triggersOcrMessage } from '@studybuddy/shared/documents';
import type { CitationDto } from '@studybuddy/shared/documents-api';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { DocumentChat } from './document-chat.tsx';
import { DocumentStatus } from './document-status.tsx';
import { DocumentText, type TextFocus } from './document-text.tsx';
import { isProcessing, useDocument, useProcessDocument } from './documents-api.ts';

/** The side panel of a document: summary, status, OCR help, questions and the text itself. */
export function DocumentPanel({
  documentId,
  opened,
  onClose,
  focus: initialFocus,
}: {
  documentId: string | null;
  opened: boolean;
  onClose: () => void;
  /** A search hit to show in the text when the panel opens. */
  focus: TextFocus | null;
}) {
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`);
  const doc = useDocument(documentId);
  const process = useProcessDocument();
  // A citation clicked here, or the search hit the panel was opened with: whichever is newer.
  const [cited, setCited] = useState<TextFocus | null>(null);
  const [textToggled, setTextToggled] = useState<boolean | null>(null);
  const started = useRef<string | null>(null);
  const focus = cited && (!initialFocus || cited.nonce > initialFocus.nonce) ? cited : initialFocus;
  const showText = textToggled ?? !!initialFocus;

  // A Canvas file is read the first time it is opened (requirements §4: processed once its text is stored).
  const status = doc.data?.status;
  const { mutate } = process;
  useEffect(() => {
    if (documentId && status === 'not_processed' && started.current !== documentId) {
      started.current = documentId;
      mutate(documentId);
    }
  }, [documentId, status, mutate]);

  const showCitation = (c: CitationDto) => {
    setTextToggled(true);
    setCited({ page: c.page, start: c.start, end: c.end, nonce: Date.now() });
  };

  const d = doc.data;
  const busy = !d || isProcessing(d.status) || d.status === 'not_processed';
  return (
    <Drawer
      opened={opened && !!documentId}
      onClose={onClose}
      position="right"
      size={isMobile ? '100%' : 560}
      title={<Text fw={700}>{d?.name ?? MSG.courses.documentSummary}</Text>}
      closeButtonProps={{ 'aria-label': MSG.courses.closePanel }}
    >
      {!d ? (
        <LoadingWrapper loading message={MSG.loading.loading} />
      ) : (
        <Stack gap="md" data-testid="document-panel">
          <DocumentStatus doc={d} />
          {triggersOcrMessage(d.name) && (
            <Text size="sm" c="dimmed">
              {MSG.courses.ocrHelp}
            </Text>
          )}
          <Stack gap={6}>
            <Title order={3} size="h5">
              {MSG.courses.documentSummary}
            </Title>
            {d.summary ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="document-summary">
                {d.summary}
              </Text>
            ) : d.status === 'summarising' ? (
              <Group gap="xs">
                <Loader size="xs" aria-hidden />
                <Text size="sm" c="dimmed">
                  {MSG.courses.status.summarising}
                </Text>
              </Group>
            ) : busy ? (
              <Text size="sm" c="dimmed">
                {MSG.courses.noSummary}
              </Text>
            ) : d.status === 'done' ? (
              <Text size="sm" c="dimmed">
                {d.hasText ? MSG.courses.noSummary : MSG.courses.noTextType}
              </Text>
            ) : null}
            {d.keyTerms.length > 0 && (
              <Group gap={6} aria-label={MSG.courses.keyTerms}>
                {d.keyTerms.map((k) => (
                  <Badge key={k} variant="light" color="gray" tt="none">
                    {k}
                  </Badge>
                ))}
              </Group>
            )}
          </Stack>
          {d.status !== 'failed' && (d.hasText || busy) && (
            <>
              <Divider />
              <DocumentChat doc={d} busy={busy} onShowCitation={showCitation} />
            </>
          )}
          {d.hasText && (
            <>
              <Divider />
              <Button
                variant="subtle"
                onClick={() => setTextToggled(!showText)}
                rightSection={showText ? <ChevronUp size={16} /> : <ChevronDown size={16} />}
                aria-expanded={showText}
                style={{ alignSelf: 'flex-start' }}
              >
                {MSG.courses.documentText}
              </Button>
              {showText && <DocumentText documentId={d.id} focus={focus} />}
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
