import type { SeedUser } from './seed-users.ts';

export const DEMO_PASSWORD = 'studybuddy';

/** Demo students: same college, overlapping courses, so every screen has something to show. */
export const DEMO_USERS: SeedUser[] = [
  {
    email: 'ada@g.ucla.edu',
    name: 'Ada Park',
    major: 'Computer Science',
    year: 'Junior',
    bio: 'Algorithms nerd. Happy to trade CS 180 notes for coffee.',
    courses: ['CS 180', 'MATH 115A', 'STATS 100A'],
  },
  {
    email: 'ben@g.ucla.edu',
    name: 'Ben Ortiz',
    major: 'Computer Science',
    year: 'Junior',
    bio: 'Looking for a study group for CS 180 and linear algebra.',
    courses: ['CS 180', 'MATH 115A', 'PHYSICS 1C'],
  },
  {
    email: 'chloe@g.ucla.edu',
    name: 'Chloe Nguyen',
    major: 'Mathematics',
    year: 'Junior',
    bio: 'Proof-writing enthusiast. Whiteboards welcome.',
    courses: ['MATH 115A', 'STATS 100A'],
  },
  {
    email: 'dev@g.ucla.edu',
    name: 'Dev Shah',
    major: 'Statistics',
    year: 'Sophomore',
    bio: 'R and Python, weekday evenings at Powell.',
    courses: ['STATS 100A', 'CS 31'],
  },
  {
    email: 'emma@g.ucla.edu',
    name: 'Emma Jones',
    major: 'Physics',
    year: 'Senior',
    bio: '',
    courses: ['PHYSICS 1C', 'MATH 115A'],
  },
  {
    email: 'finn@andrew.cmu.edu',
    name: 'Finn Weber',
    major: 'Computer Science',
    year: 'Junior',
    bio: 'Carnegie Mellon student — shows that matches stay within a college.',
    courses: ['15-213'],
  },
].map((u) => ({ ...u, password: DEMO_PASSWORD }));
