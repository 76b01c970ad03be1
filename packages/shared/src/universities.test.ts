import { describe, expect, it } from 'vitest';
import { universityForEmail } from './universities.ts';
import { actionLink } from './routes.ts';
import { isProfileComplete } from './session.ts';

const universities = [
  { key: 'UCLA', domains: ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'] },
  { key: 'CMU', domains: ['andrew.cmu.edu'] },
  { key: 'WISC', domains: ['wisc.edu'] },
];

describe('universityForEmail', () => {
  it.each([
    ['ada@ucla.edu', 'UCLA'],
    ['ada@G.UCLA.EDU', 'UCLA'],
    ['ada@mednet.ucla.edu', 'UCLA'],
    ['bo@andrew.cmu.edu', 'CMU'],
    ['cy@wisc.edu', 'WISC'],
  ])('%s belongs to %s', (email, key) => {
    expect(universityForEmail(universities, email)?.key).toBe(key);
  });

  it.each(['x@gmail.com', 'x@cmu.edu', 'x@evilucla.edu', 'x@cs.wisc.edu', 'no-at-sign', '@ucla.edu'])(
    '%s is not a supported address',
    (email) => {
      expect(universityForEmail(universities, email)).toBeUndefined();
    },
  );
});

describe('actionLink', () => {
  it('builds the /verify link with mode and oobCode', () => {
    expect(actionLink('http://localhost:3000', 'verifyEmail', 'a b')).toBe(
      'http://localhost:3000/verify?mode=verifyEmail&oobCode=a+b',
    );
  });
});

describe('isProfileComplete', () => {
  const full = { name: 'Ada', major: 'Math', year: 'Junior' as const, hasCustomProfilePicture: true };
  it('needs name, major, year and a custom picture', () => {
    expect(isProfileComplete(full)).toBe(true);
    expect(isProfileComplete({ ...full, name: '  ' })).toBe(false);
    expect(isProfileComplete({ ...full, major: '' })).toBe(false);
    expect(isProfileComplete({ ...full, year: '' })).toBe(false);
    expect(isProfileComplete({ ...full, hasCustomProfilePicture: false })).toBe(false);
    expect(isProfileComplete(null)).toBe(false);
  });
});
