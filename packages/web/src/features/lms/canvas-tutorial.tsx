import { useState } from 'react';
import { ActionIcon, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import step1 from './tutorial/step-1.svg';
import step2 from './tutorial/step-2.svg';
import step3 from './tutorial/step-3.svg';
import step4 from './tutorial/step-4.svg';

const PICTURES = [step1, step2, step3, step4];

/** How to make a Canvas access token: four steps with pictures shipped with the app (nothing loaded from outside). */
export function CanvasTutorial() {
  const steps = MSG.lms.tutorialSteps;
  const [step, setStep] = useState(0);
  return (
    <Paper withBorder p="sm" radius="md" bg="gray.0">
      <Stack gap="xs">
        <Text fw={700} size="sm">
          {MSG.lms.tutorialTitle}
        </Text>
        <Image
          src={PICTURES[step]}
          alt={MSG.lms.tutorialImage(step + 1)}
          radius="sm"
          fit="contain"
          h={{ base: 150, sm: 210 }}
          bg="white"
        />
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <ActionIcon
            variant="default"
            aria-label={MSG.lms.previousStep}
            disabled={step === 0}
            onClick={() => setStep((s) => s - 1)}
          >
            <ChevronLeft size={16} aria-hidden />
          </ActionIcon>
          <Stack gap={2} style={{ flex: 1 }} aria-live="polite">
            <Text size="xs" c="dimmed" ta="center">
              {MSG.lms.tutorialStep(step + 1, steps.length)}
            </Text>
            <Text size="sm" ta="center">
              {steps[step]}
            </Text>
          </Stack>
          <ActionIcon
            variant="default"
            aria-label={MSG.lms.nextStep}
            disabled={step === steps.length - 1}
            onClick={() => setStep((s) => s + 1)}
          >
            <ChevronRight size={16} aria-hidden />
          </ActionIcon>
        </Group>
      </Stack>
    </Paper>
  );
}
