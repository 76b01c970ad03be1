import type {
  AddMembersInput,
  CreateGroupInput,
  FriendOptions,
  GroupDetail,
  GroupKind,
  GroupList,
  HotGroupResult,
} from '@studybuddy/shared/groups';
import { api } from '../../lib/api.ts';

export const groupKeys = {
  all: ['groups'] as const,
  lists: ['groups', 'list'] as const,
  list: (kind: GroupKind) => ['groups', 'list', kind] as const,
  detail: (id: string) => ['groups', 'detail', id] as const,
  friends: ['groups', 'friends'] as const,
};

const enc = encodeURIComponent;

export const groupsApi = {
  list: (kind: GroupKind) => api<GroupList>(`/api/groups?kind=${kind}`),
  detail: (id: string) => api<GroupDetail>(`/api/groups/${enc(id)}`),
  friends: () => api<FriendOptions>('/api/groups/friend-options'),
  create: (input: CreateGroupInput) => api<GroupDetail>('/api/groups', { body: input }),
  addMembers: (id: string, input: AddMembersInput) =>
    api<GroupDetail>(`/api/groups/${enc(id)}/members`, { body: input }),
  leave: (id: string) => api<null>(`/api/groups/${enc(id)}/leave`, { body: {} }),
  /** Creates or joins the hot group of a coursework item; the id to open at /groups?groupIdToOpen=. */
  openHotGroup: (courseId: string, itemId: string, name: string) =>
    api<HotGroupResult>('/api/hot-groups', { body: { courseId, itemId, name } }),
};
