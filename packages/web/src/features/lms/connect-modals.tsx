import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { LIMITS } from '@studybuddy/shared/limits';
import type { ConnectResponse } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { CanvasTutorial } from './canvas-tutorial.tsx';
import { useConnectCanvas } from './lms-api.ts';

/** Step 1: what connecting does, the tutorial, and the terms, which must be ticked to go on. */
export function FeatureModal({
  opened,
  onClose,
  onAccept,
}: {
  opened: boolean;
  onClose: () => void;
  onAccept: () => void;
}) {
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const proceed = () => {
    if (!agreed) return setError(MSG.lms.termsRequired);
    setError(null);
    onAccept();
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': MSG.lms.close }}
      opened={opened}
      onClose={onClose}
      title={MSG.lms.featureTitle}
      centered
      size="lg"
    >
      <Stack gap="md">
        <Text size="sm">{MSG.lms.featureIntro}</Text>
        <CanvasTutorial />
        <Checkbox
          label={MSG.lms.terms}
          checked={agreed}
          onChange={(e) => {
            setAgreed(e.currentTarget.checked);
            if (e.currentTarget.checked) setError(null);
          }}
          error={error}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {MSG.lms.cancel}
          </Button>
          <Button onClick={proceed}>{MSG.lms.continue}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Step 2: the token, sent once to the server (which keeps it encrypted), then the import. */
export function TokenModal({
  opened,
  onClose,
  onBack,
  onConnected,
}: {
  opened: boolean;
  onClose: () => void;
  onBack: () => void;
  onConnected: (result: ConnectResponse) => void;
}) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const connect = useConnectCanvas();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // This form sits inside the profile form in the React tree: its submit must not save the profile.
    e.stopPropagation();
    const value = token.trim();
    if (!value) return setError(MSG.lms.tokenRequired);
    if (value.length < LIMITS.lmsTokenMin) return setError(MSG.lms.tokenTooShort);
    setError(null);
    try {
      const result = await connect.mutateAsync(value);
      setToken('');
      onConnected(result);
    } catch (err) {
      setError(err instanceof Error ? err.message : MSG.lms.importFailed);
    }
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': MSG.lms.close }}
      opened={opened}
      onClose={onClose}
      title={MSG.lms.tokenTitle}
      centered
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={MSG.lms.tokenLabel}
            description={MSG.lms.tokenHelp}
            value={token}
            onChange={(e) => setToken(e.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="space-between">
            <Button variant="default" onClick={onBack} disabled={connect.isPending}>
              {MSG.lms.back}
            </Button>
            <Button type="submit" loading={connect.isPending}>
              {connect.isPending ? MSG.lms.importing : MSG.lms.import}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
