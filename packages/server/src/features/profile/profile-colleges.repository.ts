import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { profiles } from '../../db/schema/profile.ts';

/** How many students of an e-mail domain are stored at a college. */
export interface CollegeDomain {
  college: string;
  domain: string;
  students: number;
}

/** Every (college, e-mail domain) pair the profiles hold, with its count: what the universities setting must keep. */
export async function collegesByDomain(db: Db): Promise<CollegeDomain[]> {
  const domain = sql<string>`lower(substring(${profiles.email} from '@([^@]*)$'))`;
  const rows = await db
    .select({ college: profiles.college, domain, students: sql<number>`count(*)::int` })
    .from(profiles)
    .groupBy(profiles.college, domain)
    .orderBy(profiles.college, domain);
  return rows.map((r) => ({ college: r.college, domain: r.domain ?? '', students: Number(r.students) }));
}
