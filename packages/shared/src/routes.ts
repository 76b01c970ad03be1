/** Every route of requirements §2 and the one function that builds e-mail action links. */
export const ROUTES = {
  signup: '/signup',
  login: '/login',
  verify: '/verify',
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  home: '/',
  profile: '/profile',
  matchmaking: '/matchmaking',
  friends: '/friends',
  groups: '/groups',
  assignments: '/assignments',
  courses: '/courses',
  notifications: '/notifications',
  feedback: '/feedback',
  /** Beyond requirements §2 (issue 27): the student's free time, "My week". */
  schedule: '/schedule',
  /** Beyond requirements §2 (issue 28): flashcards, shared decks and practice quizzes. */
  flashcards: '/flashcards',
  terms: '/terms',
  privacy: '/privacy',
  /** Beyond requirements §2 (issue 24): the moderation area, for admins only and linked nowhere. */
  admin: '/admin',
} as const;

export type ActionMode = 'verifyEmail' | 'resetPassword';

export function actionLink(publicUrl: string, mode: ActionMode, code: string): string {
  const url = new URL(ROUTES.verify, publicUrl);
  url.searchParams.set('mode', mode);
  url.searchParams.set('oobCode', code);
  return url.toString();
}
