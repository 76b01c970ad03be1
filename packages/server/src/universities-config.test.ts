import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DEFAULT_UNIVERSITIES } from './universities-config.ts';

const dir = () => mkdtempSync(path.join(tmpdir(), 'sb-universities-'));

const UCLA = {
  key: 'UCLA',
  name: 'UCLA',
  domains: ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'],
  lms: { kind: 'canvas', url: 'https://bruinlearn.ucla.edu' },
};
const OXFORD = { key: 'OXF', name: 'University of Oxford', domains: ['ox.ac.uk'] };

/** loadConfig with UNIVERSITIES_FILE naming a file that holds `content` (JSON unless a string is given). */
function load(content: unknown, env: Record<string, string> = {}) {
  const cwd = dir();
  writeFileSync(path.join(cwd, 'universities.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return loadConfig({ UNIVERSITIES_FILE: 'universities.json', ...env }, cwd);
}

/** The message of the ConfigError that loading `content` stops with. */
function refusal(content: unknown, env: Record<string, string> = {}): string {
  try {
    load(content, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('UNIVERSITIES_FILE', () => {
  it("is the spec's three universities when no file is given", () => {
    const c = loadConfig({}, dir());
    expect(c.universities.map((u) => [u.key, u.name, u.domains, u.lms?.url, u.signUp])).toEqual([
      ['UCLA', 'UCLA', ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'], 'https://bruinlearn.ucla.edu', true],
      ['CMU', 'Carnegie Mellon', ['andrew.cmu.edu'], 'https://canvas.cmu.edu', true],
      ['WISC', 'University of Wisconsin-Madison', ['wisc.edu'], 'https://canvas.wisc.edu', true],
    ]);
    expect(c.universitiesFile).toBeUndefined();
  });

  it('reads a file: domains lower-cased, signUp true unless said, lms optional, CANVAS_URL_<KEY> on top', () => {
    const c = load(
      {
        universities: [
          UCLA,
          { ...OXFORD, domains: ['OX.ac.uk ', 'cs.ox.ac.uk'], lms: { kind: 'canvas', url: 'http://127.0.0.1:4010/' } },
          { key: 'cmu', name: 'Carnegie Mellon', domains: ['andrew.cmu.edu'], signUp: false },
        ],
      },
      { CANVAS_URL_CMU: 'http://127.0.0.1:4011' },
    );
    expect(c.universities).toEqual([
      { ...UCLA, signUp: true },
      {
        ...OXFORD,
        domains: ['ox.ac.uk', 'cs.ox.ac.uk'],
        lms: { kind: 'canvas', url: 'http://127.0.0.1:4010' },
        signUp: true,
      },
      {
        key: 'cmu',
        name: 'Carnegie Mellon',
        domains: ['andrew.cmu.edu'],
        lms: { kind: 'canvas', url: 'http://127.0.0.1:4011' },
        signUp: false,
      },
    ]);
    expect(c.universitiesFile).toBe('universities.json');
  });

  it('takes an https LMS address in production, and http outside it (the Canvas emulator)', () => {
    const https = load({ universities: [UCLA] }, { NODE_ENV: 'production' });
    expect(https.universities[0]!.lms!.url).toBe('https://bruinlearn.ucla.edu');
    const http = { universities: [{ ...OXFORD, lms: { kind: 'canvas', url: 'http://canvas.ox.ac.uk' } }] };
    expect(load(http).universities[0]!.lms!.url).toBe('http://canvas.ox.ac.uk');
  });

  it.each([
    [
      'a missing field',
      { universities: [UCLA, { key: 'OXF', domains: ['ox.ac.uk'] }] },
      'universities[1] ("OXF") name: is missing',
    ],
    ['a missing key', { universities: [{ name: 'Oxford', domains: ['ox.ac.uk'] }] }, 'universities[0] key: is missing'],
    [
      'missing domains',
      { universities: [{ key: 'OXF', name: 'Oxford' }] },
      'universities[0] ("OXF") domains: is missing',
    ],
    [
      'a missing LMS address',
      { universities: [{ ...OXFORD, lms: { kind: 'canvas' } }] },
      'universities[0] ("OXF") lms.url: is missing',
    ],
    [
      'an LMS that is not Canvas',
      { universities: [{ ...OXFORD, lms: { kind: 'moodle', url: 'https://moodle.ox.ac.uk' } }] },
      'universities[0] ("OXF") lms.kind: must be "canvas"',
    ],
    [
      'an LMS address that is no web address',
      { universities: [{ ...OXFORD, lms: { kind: 'canvas', url: 'ftp://canvas.ox.ac.uk' } }] },
      'universities[0] ("OXF") lms.url: must be an http(s) address',
    ],
    [
      'a domain that is none',
      { universities: [{ ...OXFORD, domains: ['ox.ac.uk', '@ox'] }] },
      'universities[0] ("OXF") domains[1]: must be a domain name such as "ucla.edu", got "@ox"',
    ],
    [
      'no domain',
      { universities: [{ ...OXFORD, domains: [] }] },
      'universities[0] ("OXF") domains: must list at least',
    ],
    ['a blank name', { universities: [{ ...OXFORD, name: '  ' }] }, 'universities[0] ("OXF") name: must not be blank'],
    [
      'a key that names no setting',
      { universities: [{ ...OXFORD, key: 'Ox ford' }] },
      'universities[0] ("Ox ford") key:',
    ],
    ['signUp that is no boolean', { universities: [{ ...OXFORD, signUp: 'no' }] }, 'universities[0] ("OXF") signUp:'],
    [
      'an unknown field (a typo)',
      { universities: [{ ...OXFORD, signup: false }] },
      'universities[0] ("OXF"): unknown field "signup"',
    ],
    ['no universities', { universities: [] }, 'universities: must list at least one university'],
    ['no list', { colleges: [] }, 'universities: is missing'],
    [
      'a duplicate domain of two universities',
      { universities: [UCLA, { ...OXFORD, domains: ['ox.ac.uk', 'G.UCLA.EDU'] }] },
      'universities[1] ("OXF") domains[1]: duplicate domain "g.ucla.edu", also a domain of universities[0] ("UCLA")',
    ],
    [
      'a domain listed twice',
      { universities: [{ ...OXFORD, domains: ['ox.ac.uk', 'ox.ac.uk'] }] },
      'universities[0] ("OXF") domains[1]: duplicate domain "ox.ac.uk", listed twice',
    ],
    [
      "a domain under another university's domain",
      { universities: [UCLA, { ...OXFORD, domains: ['ox.ac.uk', 'law.ucla.edu'] }] },
      'universities[1] ("OXF") domains[1]: "law.ucla.edu" overlaps "ucla.edu" of universities[0] ("UCLA")',
    ],
    [
      'a duplicate key',
      { universities: [UCLA, { ...OXFORD, key: 'ucla' }] },
      'universities[1] ("ucla") key: duplicate key "ucla", also the key of universities[0] ("UCLA")',
    ],
  ])('stops the server for %s, naming the entry and field', (_, content, expected) => {
    const message = refusal(content);
    expect(message).toMatch(/^UNIVERSITIES_FILE \S+universities\.json: /);
    expect(message).toContain(expected);
  });

  it('stops the server for a non-https LMS address in production', () => {
    const content = { universities: [UCLA, { ...OXFORD, lms: { kind: 'canvas', url: 'http://canvas.ox.ac.uk' } }] };
    expect(refusal(content, { NODE_ENV: 'production' })).toContain(
      'universities[1] ("OXF") lms.url: must be an https address in production, got "http://canvas.ox.ac.uk"',
    );
  });

  it('stops the server for a file that is not JSON, or not there', () => {
    expect(refusal('{ "universities": [')).toMatch(/universities\.json: is not valid JSON/);
    expect(() => loadConfig({ UNIVERSITIES_FILE: 'nowhere.json' }, dir())).toThrow(
      /UNIVERSITIES_FILE \S+nowhere\.json: cannot be read \(ENOENT\)/,
    );
  });

  it('leaves the defaults unchanged by a CANVAS_URL_<KEY> override', () => {
    const c = loadConfig({ CANVAS_URL_UCLA: 'http://127.0.0.1:4010' }, dir());
    expect(c.universities[0]!.lms!.url).toBe('http://127.0.0.1:4010');
    expect(DEFAULT_UNIVERSITIES[0]!.lms!.url).toBe('https://bruinlearn.ucla.edu');
  });
});
