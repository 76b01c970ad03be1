import type { UniversitiesList } from '@studybuddy/shared/universities';
import { ConfigError, type Config } from '../../config.ts';
import type { Db } from '../../db/connect.ts';
import { profiles } from '../profile/profiles.service.ts';
import { storedCollegeConflict } from './stored-colleges.ts';

/** The universities setting (UNIVERSITIES_FILE, read by config.ts): what sign-up offers, checked against the stored. */
export function createUniversitiesService(deps: { db: Db; config: Config }) {
  const { config } = deps;
  const openForSignUp: UniversitiesList = {
    universities: config.universities
      .filter((u) => u.signUp)
      .map((u) => ({ key: u.key, name: u.name, domains: [...u.domains] })),
  };
  return {
    /** The universities open for sign-up; LMS addresses are not shown (requirements §3). */
    list: (): UniversitiesList => openForSignUp,

    /** Stops the start when the universities setting would change the college of students already stored. */
    async checkStoredColleges(): Promise<void> {
      const conflict = storedCollegeConflict(config.universities, await profiles.collegesByDomain(deps.db));
      if (!conflict) return;
      const source = config.universitiesFile
        ? `UNIVERSITIES_FILE ${config.universitiesFile}`
        : 'The default universities (no UNIVERSITIES_FILE)';
      throw new ConfigError(`${source}: ${conflict}`);
    },
  };
}

export type UniversitiesService = ReturnType<typeof createUniversitiesService>;
