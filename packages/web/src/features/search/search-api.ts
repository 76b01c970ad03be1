import type { SearchResults } from '@studybuddy/shared/search';
import { api } from '../../lib/api.ts';

export const searchKeys = {
  all: ['search'] as const,
  query: (q: string) => ['search', q] as const,
};

export const searchApi = {
  search: (q: string) => api<SearchResults>(`/api/search?${new URLSearchParams({ q }).toString()}`),
};
