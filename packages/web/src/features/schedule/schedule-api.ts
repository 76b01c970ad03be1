import type { FindATimeResult, ImportResult, MySchedule, SaveWeekInput } from '@studybuddy/shared/schedule';
import { api } from '../../lib/api.ts';

export type FindATimeTarget = { kind: 'group'; id: string } | { kind: 'friend'; id: string };

export const scheduleKeys = {
  mine: ['schedule', 'mine'] as const,
  findTime: (target: FindATimeTarget, length: number, skipDue: number) =>
    ['schedule', 'find', target.kind, target.id, length, skipDue] as const,
};

const enc = encodeURIComponent;

export const scheduleApi = {
  mine: () => api<MySchedule>('/api/schedule'),
  saveWeek: (input: SaveWeekInput) => api<MySchedule>('/api/schedule/week', { method: 'PUT', body: input }),
  importFile: (fileName: string, content: string) =>
    api<ImportResult>('/api/schedule/import/file', { body: { fileName, content } }),
  importUrl: (url: string) => api<ImportResult>('/api/schedule/import/url', { body: { url } }),
  removeImport: () => api<ImportResult>('/api/schedule/import', { method: 'DELETE' }),
  override: (key: string, free: boolean) =>
    api<MySchedule>('/api/schedule/overrides', { method: 'PUT', body: { key, free } }),
  findATime: (target: FindATimeTarget, length: number, skipDue: number) =>
    api<FindATimeResult>(
      `/api/${target.kind === 'group' ? 'groups' : 'friends'}/${enc(target.id)}/find-a-time?length=${length}&skipDue=${skipDue}`,
    ),
};
