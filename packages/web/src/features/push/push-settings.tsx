import { useEffect, useState } from 'react';
import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import type { PushSettings as Switches } from '@studybuddy/shared/push';
import { deviceState, disableDevice, enableDevice, type DeviceState } from './browser-push.ts';
import { usePushSettings, useSavePushSettings } from './push-api.ts';

/** Profile: push notices on this device, and which kinds the student wants (on every device). */
export function PushSettings() {
  const settings = usePushSettings();
  const save = useSavePushSettings();
  const [device, setDevice] = useState<DeviceState | null>(null);
  const [busy, setBusy] = useState(false);
  const [deviceError, setDeviceError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void deviceState().then((state) => live && setDevice(state));
    return () => {
      live = false;
    };
  }, []);

  const toggleDevice = async (on: boolean) => {
    setBusy(true);
    setDeviceError(null);
    try {
      const state = on ? await enableDevice() : await disableDevice();
      setDevice(state);
      if (on && state === 'blocked') setDeviceError(MSG.push.blocked);
    } catch {
      setDeviceError(MSG.push.subscribeFailed);
      setDevice(await deviceState().catch(() => 'off' as const));
    } finally {
      setBusy(false);
    }
  };

  const current: Switches =
    save.isPending && save.variables ? save.variables : (settings.data ?? { messages: true, friendRequests: true });
  const change = (patch: Partial<Switches>) => save.mutate({ ...current, ...patch });
  const deviceHelp =
    device === 'unsupported' ? MSG.push.unsupported : device === 'blocked' ? MSG.push.blocked : MSG.push.thisDeviceHelp;

  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {MSG.push.title}
        </Title>
        <Switch
          label={MSG.push.thisDevice}
          description={deviceHelp}
          checked={device === 'on'}
          disabled={busy || device === null || device === 'unsupported'}
          onChange={(e) => void toggleDevice(e.currentTarget.checked)}
        />
        {deviceError && (
          <Text c="red" size="sm" role="alert">
            {deviceError}
          </Text>
        )}
        <Switch
          label={MSG.push.messages}
          checked={current.messages}
          disabled={!settings.data || save.isPending}
          onChange={(e) => change({ messages: e.currentTarget.checked })}
        />
        <Switch
          label={MSG.push.friendRequests}
          checked={current.friendRequests}
          disabled={!settings.data || save.isPending}
          onChange={(e) => change({ friendRequests: e.currentTarget.checked })}
        />
        {(save.error || settings.error) && (
          <Text c="red" size="sm" role="alert">
            {MSG.push.saveFailed}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
