import { trimTrailing } from '@studybuddy/shared/text-scan';
import { UNIVERSITIES, type University, type UniversityKey } from '@studybuddy/shared/universities';

/**
 * The Canvas address of the university of an e-mail: CANVAS_URL_<KEY> when configured, else the university's
 * own. null when the domain is not a university's, or it has no usable (http/https) Canvas address.
 */
export function resolveCanvasUrl(
  email: string,
  overrides: Partial<Record<UniversityKey, string>>,
  universities: readonly University[] = UNIVERSITIES,
): string | null {
  const at = email.lastIndexOf('@');
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  const university = at > 0 ? universities.find((u) => u.domains.includes(domain)) : undefined;
  if (!university) return null;
  const url = trimTrailing((overrides[university.key] ?? university.canvasUrl ?? '').trim(), '/');
  return /^https?:\/\/[^/\s]+/i.test(url) ? url : null;
}

/** Canvas's own account settings page, where access tokens are made. */
export const canvasSettingsUrl = (canvasUrl: string) => `${canvasUrl}/profile/settings`;
