import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROFILE_API, type NotificationSettings, type ProfileUpdate } from '@studybuddy/shared/profile';
import type { OwnProfile } from '@studybuddy/shared/session';
import { api } from '../../lib/api.ts';
import { announceSessionChange, SESSION_KEY } from '../auth/index.ts';

export const PROFILE_KEY = ['profile'] as const;

export function useOwnProfile() {
  return useQuery({ queryKey: PROFILE_KEY, queryFn: () => api<OwnProfile>(PROFILE_API.own) });
}

/** Saves the profile; the session is refetched so the guard and the shell see the change. */
export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => api<OwnProfile>(PROFILE_API.own, { method: 'PUT', body }),
    onSuccess: async (saved) => {
      client.setQueryData(PROFILE_KEY, saved);
      announceSessionChange();
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettings) => api<OwnProfile>(PROFILE_API.notifications, { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(PROFILE_KEY, saved),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => api<{ ok: true }>(PROFILE_API.account, { method: 'DELETE', body: { password } }),
  });
}
