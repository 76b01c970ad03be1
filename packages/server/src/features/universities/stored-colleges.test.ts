import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { seedUser } from '../../demo/seed-users.ts';
import { createTestApp } from '../../test/test-app.ts';
import { DEFAULT_UNIVERSITIES, type University } from '../../universities-config.ts';
import { storedCollegeConflict } from './stored-colleges.ts';

const [UCLA, CMU, WISC] = DEFAULT_UNIVERSITIES as [University, University, University];
const stored = [
  { college: 'UCLA', domain: 'g.ucla.edu', students: 3 },
  { college: 'UCLA', domain: 'ucla.edu', students: 1 },
  { college: 'Carnegie Mellon', domain: 'andrew.cmu.edu', students: 2 },
  { college: 'University of Wisconsin-Madison', domain: 'wisc.edu', students: 1 },
];

describe('the universities setting against the students already stored', () => {
  it('accepts the same universities, a new one, a new key, a closed one and a removed one', () => {
    expect(storedCollegeConflict(DEFAULT_UNIVERSITIES, stored)).toBeUndefined();
    const oxford: University = { key: 'OXF', name: 'University of Oxford', domains: ['ox.ac.uk'], signUp: true };
    expect(
      storedCollegeConflict([{ ...UCLA, key: 'BRUINS' }, { ...CMU, signUp: false }, oxford], stored),
    ).toBeUndefined();
  });

  it('refuses a renamed university: its stored students would be apart from the new ones', () => {
    const renamed = [CMU, { ...UCLA, name: 'UCLA Bruins' }, WISC];
    expect(storedCollegeConflict(renamed, stored)).toBe(
      'universities[1] ("UCLA") name: "UCLA Bruins" is not the college "UCLA" at which 3 students of g.ucla.edu are ' +
        'stored; matching, search and hot groups would keep new students of g.ucla.edu apart from them. Keep the name ' +
        '"UCLA" for the university of g.ucla.edu (a university\'s name is what its students are stored under; its key ' +
        'may change)',
    );
  });

  it('refuses a domain moved to another university', () => {
    const moved = [
      { ...UCLA, domains: ['ucla.edu', 'g.ucla.edu'] },
      { key: 'HEALTH', name: 'UCLA Health', domains: ['mednet.ucla.edu'], signUp: true },
      CMU,
    ];
    const withMednet = [...stored, { college: 'UCLA', domain: 'mednet.ucla.edu', students: 1 }];
    expect(storedCollegeConflict(moved, withMednet)).toMatch(
      /^universities\[1\] \("HEALTH"\) name: "UCLA Health" is not the college "UCLA" at which 1 student of mednet\.ucla\.edu is stored;/,
    );
  });

  it('stops the start of a server whose file renames a university that has students', async () => {
    const t = await createTestApp();
    await seedUser(t.app.ctx.db, { email: 'ann@g.ucla.edu' });
    await t.app.close();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-universities-')), 'universities.json');
    writeFileSync(file, JSON.stringify({ universities: [{ ...UCLA, name: 'UCLA Bruins' }] }));
    const env = {
      DATA_DIR: t.config.dataDir,
      LOG_LEVEL: 'silent',
      UNIVERSITIES_FILE: file,
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    };
    try {
      const refused = await buildApp(loadConfig(env), { logger: false }).then(
        (app) => app.close().then(() => 'started'),
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toBe(
        `UNIVERSITIES_FILE ${file}: universities[0] ("UCLA") name: "UCLA Bruins" is not the college "UCLA" at which ` +
          '1 student of g.ucla.edu is stored; matching, search and hot groups would keep new students of g.ucla.edu ' +
          'apart from them. Keep the name "UCLA" for the university of g.ucla.edu (a university\'s name is what its ' +
          'students are stored under; its key may change)',
      );
      // Keeping the name (a new key and a new university are fine) starts.
      writeFileSync(file, JSON.stringify({ universities: [{ ...UCLA, key: 'BRUINS' }] }));
      const app = await buildApp(loadConfig(env), { logger: false });
      expect((await app.inject({ url: '/api/universities' })).json().universities[0].key).toBe('BRUINS');
      await app.close();
    } finally {
      await t.close();
    }
  });
});
