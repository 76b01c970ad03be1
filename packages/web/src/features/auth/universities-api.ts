import { useQuery } from '@tanstack/react-query';
import type { PublicUniversity, UniversitiesList } from '@studybuddy/shared/universities';
import { api } from '../../lib/api.ts';

/**
 * The universities whose students may sign up, as the server's setting has them (GET /api/universities): the web app
 * keeps no list of its own. Undefined until loaded (or when it could not be): the server checks sign-ups anyway.
 */
export function useUniversities(): PublicUniversity[] | undefined {
  const { data } = useQuery({
    queryKey: ['universities'],
    queryFn: () => api<UniversitiesList>('/api/universities'),
    staleTime: 5 * 60_000,
  });
  return data?.universities;
}

/** 'A, B and C' for the terms page. */
export function universityNames(universities: readonly PublicUniversity[]): string {
  const names = universities.map((u) => u.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}
