// Every user-facing text, one module per feature in messages/ (issue 25 point 5). A page that needs only a few
// texts imports its feature's module (`@studybuddy/shared/messages/public` on the log-in page), so a first load
// carries only them; everyone else imports MSG from here. New texts go into their feature's module (or a new one,
// spread in below); messages/catalogue.test.ts proves every text is used.
import { ABOUT_MSG } from './messages/about.ts';
import { ACCOUNT_MSG } from './messages/account.ts';
import { ANSWERS_MSG } from './messages/answers.ts';
import { AUTH_MSG } from './messages/auth.ts';
import { BLOCK_MSG } from './messages/blocks.ts';
import { CALENDAR_MSG } from './messages/calendar.ts';
import { CHAT_MSG } from './messages/chat.ts';
import { COURSES_MSG } from './messages/courses.ts';
import { FEEDBACK_MSG } from './messages/feedback.ts';
import { FILES_MSG } from './messages/files.ts';
import { FLASHCARDS_MSG } from './messages/flashcards.ts';
import { GROUPS_MSG } from './messages/groups.ts';
import { LMS_MSG } from './messages/lms.ts';
import { MODERATION_MSG } from './messages/moderation.ts';
import { PLATFORM_MSG } from './messages/platform.ts';
import { PROFILE_MSG } from './messages/profile.ts';
import { PUBLIC_MSG } from './messages/public.ts';
import { PWA_MSG } from './messages/pwa.ts';
import { REACTIONS_MSG } from './messages/reactions.ts';
import { SCHEDULE_MSG } from './messages/schedule.ts';
import { SEARCH_MSG } from './messages/search.ts';
import { SHELL_MSG } from './messages/shell.ts';
import { SOCIAL_MSG } from './messages/social.ts';
import { STUDY_SESSIONS_MSG } from './messages/study-sessions.ts';
// Find a study group: classmates by free time, invitations (issue 27 part 5)
import { STUDY_GROUPS_MSG } from './messages/study-groups.ts';

/** Every user-visible text of the product spec (§2, §5, §8) and beyond. Tests assert against this catalogue. */
export const MSG = {
  ...PUBLIC_MSG,
  ...AUTH_MSG,
  // The log-in page's few texts of these two parts are in PUBLIC_MSG (its first load), the rest in AUTH_MSG.
  signup: { ...AUTH_MSG.signup, ...PUBLIC_MSG.signup },
  reset: { ...AUTH_MSG.reset, ...PUBLIC_MSG.reset },
  ...SHELL_MSG,
  ...PWA_MSG,
  ...PROFILE_MSG,
  ...ACCOUNT_MSG,
  ...FILES_MSG,
  ...FEEDBACK_MSG,
  ...SOCIAL_MSG,
  ...BLOCK_MSG,
  ...MODERATION_MSG,
  ...CHAT_MSG,
  ...REACTIONS_MSG,
  ...GROUPS_MSG,
  ...COURSES_MSG,
  ...ANSWERS_MSG,
  ...LMS_MSG,
  ...CALENDAR_MSG,
  ...SEARCH_MSG,
  ...SCHEDULE_MSG,
  ...STUDY_SESSIONS_MSG,
  ...STUDY_GROUPS_MSG,
  ...FLASHCARDS_MSG,
  ...ABOUT_MSG,
  ...PLATFORM_MSG,
} as const;
