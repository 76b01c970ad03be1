import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushKey, PushSettings, PushSettingsView } from '@studybuddy/shared/push';
import { PUSH_API } from '@studybuddy/shared/push-api';
import { api } from '../../lib/api.ts';

export const pushKeys = { settings: ['push', 'settings'] as const };

export const pushApi = {
  key: () => api<PushKey>(PUSH_API.key),
  subscribe: (subscription: PushSubscriptionJSON) =>
    api<{ ok: true }>(PUSH_API.subscriptions, { method: 'POST', body: subscription }),
  unsubscribe: (endpoint: string) =>
    api<{ ok: true }>(PUSH_API.subscriptions, { method: 'DELETE', body: { endpoint } }),
  settings: () => api<PushSettingsView>(PUSH_API.settings),
  saveSettings: (settings: PushSettings) => api<PushSettingsView>(PUSH_API.settings, { method: 'PUT', body: settings }),
  muteGroup: (groupId: string, muted: boolean) =>
    api<PushSettingsView>(PUSH_API.groupMute(groupId), { method: 'PUT', body: { muted } }),
};

export function usePushSettings() {
  return useQuery({ queryKey: pushKeys.settings, queryFn: pushApi.settings });
}

export function useSavePushSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: pushApi.saveSettings,
    onSuccess: (view) => client.setQueryData(pushKeys.settings, view),
  });
}

export function useMuteGroup(groupId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (muted: boolean) => pushApi.muteGroup(groupId, muted),
    onSuccess: (view) => client.setQueryData(pushKeys.settings, view),
  });
}
