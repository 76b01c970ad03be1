import { universityForEmail } from '@studybuddy/shared/universities';
import type { University } from '../../universities-config.ts';
import type { CollegeDomain } from '../profile/profiles.service.ts';

/**
 * What a universities list would change for students already stored: a student's university is kept as their
 * profile's college (the university's name when they joined), and matching, search and hot groups compare it. A
 * domain whose stored students are at one college but which the list now gives to a university of another name
 * (a renamed university, or a domain moved to another one) would put new students apart from them: that is refused.
 * A domain the list no longer has at all is fine (a removed university: its students keep logging in).
 * Returns the message naming the entry and field, or undefined.
 */
export function storedCollegeConflict(
  universities: readonly University[],
  stored: readonly CollegeDomain[],
): string | undefined {
  for (const row of stored) {
    const university = universityForEmail(universities, `x@${row.domain}`);
    if (!university || university.name === row.college) continue;
    const index = universities.indexOf(university);
    const others = stored.filter((r) => r.domain === row.domain && r.college === university.name);
    const students = `${row.students} student${row.students === 1 ? '' : 's'}`;
    return (
      `universities[${index}] ("${university.key}") name: "${university.name}" is not the college "${row.college}" at ` +
      `which ${students} of ${row.domain} ${row.students === 1 ? 'is' : 'are'} stored` +
      (others.length ? ` (others of ${row.domain} are at "${university.name}")` : '') +
      `; matching, search and hot groups would keep new students of ${row.domain} apart from them. Keep the name ` +
      `"${row.college}" for the university of ${row.domain} (a university's name is what its students are stored ` +
      `under; its key may change)`
    );
  }
  return undefined;
}
