import { z } from 'zod';

/**
 * A university as the server tells the web app of it (GET /api/universities): those open for sign-up, without their
 * LMS address (requirements §3: the LMS addresses are not shown). The list itself is a server setting
 * (UNIVERSITIES_FILE); nothing here holds a copy of it.
 */
export const publicUniversitySchema = z.object({
  key: z.string(),
  name: z.string(),
  domains: z.array(z.string()),
});
export type PublicUniversity = z.infer<typeof publicUniversitySchema>;

export const universitiesListSchema = z.object({ universities: z.array(publicUniversitySchema) });
export type UniversitiesList = z.infer<typeof universitiesListSchema>;

/** The lower-cased domain of an e-mail address (after its last @), or undefined when it has none. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return domain || undefined;
}

/** The university of `universities` whose listed domain equals the e-mail's domain (case-insensitive), if any. */
export function universityForEmail<U extends { domains: readonly string[] }>(
  universities: readonly U[],
  email: string,
): U | undefined {
  const domain = emailDomain(email);
  return domain === undefined ? undefined : universities.find((u) => u.domains.includes(domain));
}
