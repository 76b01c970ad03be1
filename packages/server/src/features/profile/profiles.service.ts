import { isProfileComplete, type CourseRef, type OwnProfile } from '@studybuddy/shared/session';
import { universityForEmail } from '@studybuddy/shared/universities';
import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import { newAvatarPath } from '../avatars/avatars.service.ts';
import * as discovery from './discovery.repository.ts';
import { collegesByDomain } from './profile-colleges.repository.ts';
import { courseKey, replaceProfileCourses } from './profile-courses.repository.ts';
import * as moderation from './profile-moderation.repository.ts';
import * as repo from './profile.repository.ts';
import { toOwnProfile } from './profile.service.ts';

export type { CandidateRow, ClassmatesQuery, RankPosition, RankingViewer, Viewer } from './discovery.repository.ts';
export type { PublicProfileRow } from './profile.repository.ts';
export type { CollegeDomain } from './profile-colleges.repository.ts';

/** What another student's list shows of someone: name (may be blank), picture, major and year. */
export interface ProfileCard {
  id: string;
  name: string;
  profilePicture: string;
  major: string;
  year: string;
  /** For sorting by name. */
  lowercaseName: string;
}

/** A student as the social rules need them, with whether their profile is complete (requirements §5). */
export interface MemberProfile {
  college: string;
  name: string;
  major: string;
  year: string;
  complete: boolean;
}

/**
 * The profile feature owns `profiles` and `profile_courses`; other features read and change profiles only
 * through this object. Every function takes the `Db` to use, so a caller's transaction can include it.
 */
export const profiles = {
  /**
   * The profile of requirements §3 with its defaults, created on the first verified sign-in (nothing when it exists):
   * college from the e-mail domain's university in `universities` (the setting), a robot avatar with a random seed,
   * hasCustomProfilePicture false, empty strings and lists, emailNotificationsEnabled true.
   * False when the student has no profile and their domain is no university's (one removed from the setting before
   * they ever signed in): no college to give them.
   */
  async ensure(
    db: Db,
    userId: string,
    email: string,
    universities: readonly { name: string; domains: readonly string[] }[],
  ): Promise<boolean> {
    const university = universityForEmail(universities, email);
    if (!university) return (await repo.findFields(db, userId)) !== undefined;
    await repo.insertDefaultProfile(db, {
      userId,
      email,
      college: university.name,
      profilePicture: newAvatarPath(),
    });
    return true;
  },

  /** The user's own profile as the web app sees it; null when there is none. */
  async own(db: Db, userId: string): Promise<OwnProfile | null> {
    const row = await repo.findProfile(db, userId);
    return row ? toOwnProfile(row) : null;
  },

  /** The display name ('' when blank or without a profile). */
  async name(db: Db, userId: string): Promise<string> {
    return (await repo.findFields(db, userId))?.name.trim() ?? '';
  },

  /** Cards of several students by id (those without a profile are missing). */
  async cards(db: Db, userIds: string[]): Promise<Map<string, ProfileCard>> {
    return new Map((await repo.findCards(db, userIds)).map((c) => [c.id, c]));
  },

  /** The profile summary another student may see, with the courses shared with the viewer. */
  publicCard: (db: Db, viewerId: string, userId: string) => repo.findPublicProfile(db, viewerId, userId),

  async member(db: Db, userId: string): Promise<MemberProfile | undefined> {
    const p = await repo.findFields(db, userId);
    if (!p) return undefined;
    const complete = isProfileComplete({ ...p, year: p.year as OwnProfile['year'] });
    return { college: p.college, name: p.name, major: p.major, year: p.year, complete };
  },

  /** Where and whether to send the user e-mail notices. */
  async mailContact(db: Db, userId: string): Promise<{ email: string; notify: boolean } | undefined> {
    const p = await repo.findFields(db, userId);
    return p && { email: p.email, notify: p.emailNotificationsEnabled };
  },

  /** One-click unsubscribe: e-mail notices off. False when there is no such profile. */
  disableNotifications: (db: Db, userId: string) => repo.disableNotifications(db, userId),

  async email(db: Db, userId: string): Promise<string | undefined> {
    return (await repo.findFields(db, userId))?.email;
  },

  async courses(db: Db, userId: string): Promise<CourseRef[]> {
    return (await repo.findFields(db, userId))?.courses ?? [];
  },

  /** Replaces the course list and its normalised rows together (Canvas import); false without a profile. */
  setCourses(db: Db, userId: string, courses: CourseRef[]): Promise<boolean> {
    return withTransaction(db, async (tx) => {
      if (!(await repo.updateCourses(tx, userId, courses))) return false;
      await replaceProfileCourses(tx, userId, courses);
      return true;
    });
  },

  /** Requirements §3 `gcalEnabled`: whether the user connected Google Calendar once (consent is not asked again). */
  async googleCalendarEnabled(db: Db, userId: string): Promise<boolean> {
    return (await repo.findFields(db, userId))?.gcalEnabled ?? false;
  },

  setGoogleCalendarEnabled: (db: Db, userId: string, enabled: boolean) => repo.setGcalEnabled(db, userId, enabled),

  /**
   * SQL other features embed where one statement must do the work (the chat batch write, hot groups): scalar
   * subqueries over the profile for a user id given as an SQL expression.
   */
  sql: { name: repo.nameSql, college: repo.collegeSql, holdsCourse: repo.holdsCourseSql },

  /**
   * Moderation (issue 24): the accounts feature keeps `accountDisabled` in step with the account, and a disabled
   * student is left out of matching, search and groups' member lists; admins find students by name at any college.
   */
  moderation: {
    setAccountDisabled: moderation.setAccountDisabled,
    disabledAmong: moderation.disabledAmong,
    listings: moderation.findListings,
    idsByName: moderation.idsByName,
  },

  /** Every (college, e-mail domain) pair stored, with its count (the universities setting is checked against it). */
  collegesByDomain,

  /** Student discovery: the match ranking and the name search over complete profiles of one college. */
  discovery: {
    courseKeys: discovery.courseKeysOf,
    matches: discovery.findMatches,
    search: discovery.searchUsers,
    /** "Find a study group" (issue 27 part 5): classmates of one course, and whether ids are such classmates. */
    classmates: discovery.findClassmates,
    classmatesAmong: discovery.classmatesAmong,
    ownCourseName: discovery.ownCourseName,
    courseKey,
  },
};
