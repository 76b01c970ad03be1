import type {
  CreateStudyGroupInput,
  CreateStudyGroupResult,
  GroupInvitationList,
  StudyGroupSuggestions,
} from '@studybuddy/shared/study-groups';
import { api } from '../../lib/api.ts';

export const studyGroupKeys = {
  suggestions: (course: string) => ['study-groups', 'suggestions', course] as const,
  invitations: ['study-groups', 'invitations'] as const,
};

const enc = encodeURIComponent;

export const studyGroupsApi = {
  suggestions: (course: string) => api<StudyGroupSuggestions>(`/api/study-groups/suggestions?course=${enc(course)}`),
  create: (input: CreateStudyGroupInput) => api<CreateStudyGroupResult>('/api/study-groups', { body: input }),
  invitations: () => api<GroupInvitationList>('/api/group-invitations'),
  accept: (groupId: string) => api<null>(`/api/group-invitations/${enc(groupId)}/accept`, { body: {} }),
  decline: (groupId: string) => api<null>(`/api/group-invitations/${enc(groupId)}/decline`, { body: {} }),
};
