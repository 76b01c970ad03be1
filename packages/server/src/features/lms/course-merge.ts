import { LIMITS } from '@studybuddy/shared/limits';

export interface CourseRef {
  id: string;
  name: string;
}

/** Same normalisation as the profile's course rows: trimmed, single spaces, lower case. */
const key = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Requirements §5: imported courses are merged into the profile's and the list is cut to 10. The profile's own
 * courses keep their places; one that is the same course (same id, or same name) takes Canvas's id and name,
 * so its coursework can be loaded; new Canvas courses follow in Canvas's order.
 */
export function mergeCourses(existing: CourseRef[], imported: CourseRef[]): CourseRef[] {
  const merged = existing.map((c) => ({ id: c.id, name: c.name }));
  for (const course of imported) {
    const same = merged.findIndex((c) => c.id === course.id || key(c.name) === key(course.name));
    if (same >= 0) merged[same] = { ...course };
    else merged.push({ ...course });
  }
  const seen = new Set<string>();
  return merged
    .filter((c) => {
      const k = key(c.name);
      if (!k || seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, LIMITS.coursesPerProfile);
}
