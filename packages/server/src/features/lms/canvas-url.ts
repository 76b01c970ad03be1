import { trimTrailing } from '@studybuddy/shared/text-scan';
import { universityForEmail } from '@studybuddy/shared/universities';
import type { University } from '../../universities-config.ts';

/**
 * The Canvas address of the university of an e-mail, as the universities setting names it (UNIVERSITIES_FILE's
 * `lms.url`, or CANVAS_URL_<KEY>). null when the domain is no university's, or it has no usable (http/https) Canvas
 * address: 'Canvas URL not available for your university'.
 */
export function resolveCanvasUrl(email: string, universities: readonly University[]): string | null {
  const university = universityForEmail(universities, email);
  if (!university?.lms) return null;
  const url = trimTrailing(university.lms.url.trim(), '/');
  return /^https?:\/\/[^/\s]+/i.test(url) ? url : null;
}

/** Canvas's own account settings page, where access tokens are made. */
export const canvasSettingsUrl = (canvasUrl: string) => `${canvasUrl}/profile/settings`;
