import { useId } from 'react';
import { AspectRatio, Button, Collapse, List, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { MSG } from '@studybuddy/shared/messages';

/** Recorded from the Canvas emulator's token pages by scripts/record-tutorial.mjs (served with the app). */
const VIDEO = '/tutorial/canvas-token.webm';
const CAPTIONS = '/tutorial/canvas-token.vtt';

/**
 * How to make a Canvas access token: a short silent video with captions, its transcript behind a toggle (for
 * anyone who cannot watch it) and the steps as text.
 */
export function CanvasTutorial() {
  const [transcriptOpen, { toggle }] = useDisclosure(false);
  const ids = useId();
  const titleId = `${ids}-title`;
  const transcriptId = `${ids}-transcript`;
  return (
    <Paper withBorder p="sm" radius="md" bg="var(--sb-surface-muted)">
      <Stack gap="xs">
        <Text fw={700} size="sm" id={titleId}>
          {MSG.lms.tutorialTitle}
        </Text>
        <AspectRatio ratio={960 / 600} maw={640} w="100%" mx="auto">
          <video
            controls
            preload="metadata"
            aria-label={MSG.lms.tutorialVideo}
            style={{ borderRadius: 'var(--mantine-radius-sm)', background: 'white', width: '100%' }}
          >
            <source src={VIDEO} type="video/webm" />
            <track kind="captions" src={CAPTIONS} srcLang="en" label="English" default />
          </video>
        </AspectRatio>
        <Button
          variant="default"
          size="xs"
          onClick={toggle}
          aria-expanded={transcriptOpen}
          aria-controls={transcriptId}
          style={{ alignSelf: 'flex-start' }}
        >
          {transcriptOpen ? MSG.lms.hideTranscript : MSG.lms.showTranscript}
        </Button>
        <Collapse expanded={transcriptOpen} id={transcriptId}>
          <Stack gap={4} data-testid="tutorial-transcript">
            {MSG.lms.tutorialTranscript.map((paragraph) => (
              <Text key={paragraph} size="sm">
                {paragraph}
              </Text>
            ))}
          </Stack>
        </Collapse>
        <Text fw={600} size="sm" mt={4}>
          {MSG.lms.tutorialStepsTitle}
        </Text>
        <List type="ordered" size="sm" spacing={2} aria-label={MSG.lms.tutorialStepsTitle}>
          {MSG.lms.tutorialSteps.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}
