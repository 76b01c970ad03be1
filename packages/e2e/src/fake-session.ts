import type { Page } from 'playwright-core';
import type { SessionInfo } from '@studybuddy/shared/session';

/** A signed-in student with a complete profile, answered by the browser itself (for screens that only need a session). */
export const COMPLETE_SESSION: SessionInfo = {
  user: { id: 'u1', email: 'ada@g.ucla.edu', emailVerified: true },
  profile: {
    uid: 'u1',
    email: 'ada@g.ucla.edu',
    college: 'UCLA',
    name: 'Ada Lovelace',
    major: 'Mathematics',
    year: 'Junior',
    bio: '',
    courses: [],
    profilePicture: '/favicon.svg',
    hasCustomProfilePicture: true,
    additionalImages: [],
    emailNotificationsEnabled: true,
  },
};

export async function fakeSession(page: Page, session: SessionInfo = COMPLETE_SESSION): Promise<void> {
  await page.route('**/api/auth/session', (route) => route.fulfill({ json: session }));
}
