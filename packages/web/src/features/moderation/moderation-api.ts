import type {
  AdminActionInput,
  AdminActionResult,
  AuditLog,
  FeedbackInbox,
  ReportInput,
  ReportQueue,
  ReportReceived,
  ReportStatus,
  StudentSearch,
} from '@studybuddy/shared/moderation';
import { api } from '../../lib/api.ts';

const enc = encodeURIComponent;

/** Query keys of the admin area; every action refreshes all of them. */
export const adminKeys = {
  all: ['admin'] as const,
  me: ['admin', 'me'] as const,
  reports: (status: ReportStatus) => ['admin', 'reports', status] as const,
  feedback: ['admin', 'feedback'] as const,
  students: (q: string) => ['admin', 'students', q] as const,
  audit: ['admin', 'audit'] as const,
};

export const moderationApi = {
  report: (input: ReportInput) => api<ReportReceived>('/api/reports', { body: input }),
};

/** What an admin action names: the URL it posts to. */
export type AdminAction =
  | { kind: 'resolve'; reportId: string }
  | { kind: 'disable' | 'enable'; userId: string }
  | { kind: 'deleteMessage'; messageId: string }
  | { kind: 'removeFromGroup'; groupId: string; userId: string };

function actionUrl(action: AdminAction): string {
  switch (action.kind) {
    case 'resolve':
      return `/api/admin/reports/${enc(action.reportId)}/resolve`;
    case 'disable':
    case 'enable':
      return `/api/admin/students/${enc(action.userId)}/${action.kind}`;
    case 'deleteMessage':
      return `/api/admin/messages/${enc(action.messageId)}/delete`;
    case 'removeFromGroup':
      return `/api/admin/groups/${enc(action.groupId)}/members/${enc(action.userId)}/remove`;
  }
}

export const adminApi = {
  me: () => api<{ email: string }>('/api/admin/me'),
  reports: (status: ReportStatus) => api<ReportQueue>(`/api/admin/reports?status=${status}`),
  feedback: () => api<FeedbackInbox>('/api/admin/feedback'),
  students: (q: string) => api<StudentSearch>(`/api/admin/students?q=${enc(q)}`),
  audit: () => api<AuditLog>('/api/admin/audit'),
  act: (action: AdminAction, input: AdminActionInput) => api<AdminActionResult>(actionUrl(action), { body: input }),
};
