import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ACCOUNT_API,
  type AccountSessionList,
  type ChangePasswordInput,
  type ExportRequested,
  type SignedOutOthers,
} from '@studybuddy/shared/account';
import { api } from '../../lib/api.ts';

/** The account controls of the profile page: password, signed-in browsers, data download. */

export const SESSIONS_KEY = ['account', 'sessions'] as const;

export function useAccountSessions() {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: () => api<AccountSessionList>(ACCOUNT_API.sessions) });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordInput) => api<{ ok: true }>(ACCOUNT_API.password, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useSignOutSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ ok: true }>(ACCOUNT_API.session.replace(':id', encodeURIComponent(id)), { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useSignOutOthers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<SignedOutOthers>(ACCOUNT_API.signOutOthers, { body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** Takes the hour's download and starts it: the browser saves the ZIP as it streams (nothing held in the page). */
export function useDownloadData() {
  return useMutation({
    mutationFn: async () => {
      const { url } = await api<ExportRequested>(ACCOUNT_API.export, { body: {} });
      const link = document.createElement('a');
      link.href = url;
      link.download = '';
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
    },
  });
}
