import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { trimTrailing } from '@studybuddy/shared/text-scan';

/**
 * A university the server serves (UNIVERSITIES_FILE, else the spec's three). The server is the only source: sign-up,
 * social sign-in, the college of a new profile and the Canvas address all read `config.universities`.
 */
export interface University {
  /** The file's handle for it: `CANVAS_URL_<KEY>` overrides its Canvas address; the web app's list names it. */
  key: string;
  /** The college its students are stored at (matching, search and hot groups compare it). */
  name: string;
  /** Lower-cased e-mail domains; an address belongs to the university whose list holds its domain exactly. */
  domains: string[];
  /** Its Canvas; without it LMS features say 'Canvas URL not available for your university'. */
  lms?: { kind: 'canvas'; url: string };
  /** False: its students keep their accounts, but nobody new signs up with its domains. */
  signUp: boolean;
}

/** The universities of requirements §3, used when no UNIVERSITIES_FILE is given. */
export const DEFAULT_UNIVERSITIES: readonly University[] = [
  {
    key: 'UCLA',
    name: 'UCLA',
    domains: ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'],
    lms: { kind: 'canvas', url: 'https://bruinlearn.ucla.edu' },
    signUp: true,
  },
  {
    key: 'CMU',
    name: 'Carnegie Mellon',
    domains: ['andrew.cmu.edu'],
    lms: { kind: 'canvas', url: 'https://canvas.cmu.edu' },
    signUp: true,
  },
  {
    key: 'WISC',
    name: 'University of Wisconsin-Madison',
    domains: ['wisc.edu'],
    lms: { kind: 'canvas', url: 'https://canvas.wisc.edu' },
    signUp: true,
  },
];

/** Thrown for a file that cannot be used; config.ts turns it into its ConfigError. */
export class UniversitiesFileError extends Error {}

const missingOr = (what: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is missing' : what);

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const domainSchema = z
  .string({ error: missingOr('must be a domain name such as "ucla.edu"') })
  .trim()
  .toLowerCase()
  .refine((d) => DOMAIN.test(d), {
    error: (issue) => `must be a domain name such as "ucla.edu", got "${String(issue.input)}"`,
  });

const lmsSchema = z.strictObject(
  {
    kind: z.literal('canvas', { error: missingOr('must be "canvas" (the one LMS the server speaks)') }),
    url: z
      .string({ error: missingOr('must be the LMS address, such as "https://canvas.example.edu"') })
      .trim()
      .refine((u) => /^https?:$/.test(safeUrl(u)?.protocol ?? ''), {
        error: (issue) =>
          `must be an http(s) address such as "https://canvas.example.edu", got "${String(issue.input)}"`,
      })
      .transform((u) => trimTrailing(u, '/')),
  },
  { error: missingOr('must be an object such as { "kind": "canvas", "url": "https://canvas.example.edu" }') },
);

const universitySchema = z.strictObject(
  {
    key: z
      .string({ error: missingOr('must be a string') })
      .regex(/^[A-Za-z0-9_]{1,40}$/, 'must be 1 to 40 letters, digits or underscores (it names CANVAS_URL_<KEY>)'),
    name: z
      .string({ error: missingOr('must be a string') })
      .trim()
      .min(1, 'must not be blank')
      .max(120, 'is longer than 120 characters'),
    domains: z
      .array(domainSchema, { error: missingOr('must be a list of e-mail domains') })
      .min(1, 'must list at least one e-mail domain'),
    lms: lmsSchema.optional(),
    signUp: z.boolean({ error: 'must be true or false' }).default(true),
  },
  { error: missingOr('must be an object with key, name and domains') },
);

const fileSchema = z.strictObject(
  {
    universities: z
      .array(universitySchema, { error: missingOr('must be a list of universities') })
      .min(1, 'must list at least one university'),
  },
  { error: 'must be a JSON object { "universities": [ ... ] }' },
);

function safeUrl(u: string): URL | undefined {
  try {
    return new URL(u);
  } catch {
    return undefined;
  }
}

/** `universities[2] ("OXF") lms.url` for an issue's path, with the entry's key when the file gives one. */
function place(raw: unknown, issuePath: readonly PropertyKey[]): string {
  if (issuePath[0] !== 'universities' || typeof issuePath[1] !== 'number') {
    return issuePath.length ? issuePath.map(String).join('.') : 'the file';
  }
  const index = issuePath[1];
  const entry = (raw as { universities?: unknown[] }).universities?.[index];
  const key = entry && typeof entry === 'object' ? (entry as { key?: unknown }).key : undefined;
  const field = issuePath
    .slice(2)
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
  return `universities[${index}]${typeof key === 'string' ? ` ("${key}")` : ''}${field ? ` ${field}` : ''}`;
}

/**
 * Checks what zod cannot see entry by entry: keys once each, and every domain in one university only — neither
 * the same domain twice nor one university's domain under another's (a sub-domain would make the e-mail's
 * university depend on which list is read first).
 */
function checkAcross(universities: University[]): string | undefined {
  const label = (i: number) => `universities[${i}] ("${universities[i]!.key}")`;
  const keys = new Map<string, number>();
  for (const [i, u] of universities.entries()) {
    const seen = keys.get(u.key.toUpperCase());
    if (seen !== undefined) return `${label(i)} key: duplicate key "${u.key}", also the key of ${label(seen)}`;
    keys.set(u.key.toUpperCase(), i);
  }
  const owners = new Map<string, { entry: number; index: number }>();
  for (const [i, u] of universities.entries()) {
    for (const [j, domain] of u.domains.entries()) {
      const seen = owners.get(domain);
      if (seen) {
        const where = seen.entry === i ? 'listed twice' : `also a domain of ${label(seen.entry)}`;
        return `${label(i)} domains[${j}]: duplicate domain "${domain}", ${where}`;
      }
      owners.set(domain, { entry: i, index: j });
    }
  }
  for (const [domain, owner] of owners) {
    for (const [other, theirs] of owners) {
      if (owner.entry !== theirs.entry && domain.endsWith(`.${other}`)) {
        return (
          `${label(owner.entry)} domains[${owner.index}]: "${domain}" overlaps "${other}" of ${label(theirs.entry)} ` +
          `(a sub-domain of another university's domain)`
        );
      }
    }
  }
  return undefined;
}

/**
 * The universities of the JSON file at `file` (resolved against `cwd`), checked in full: a message naming the entry
 * and field of the first problem otherwise. In production an LMS address must be https.
 */
export function readUniversitiesFile(file: string, cwd: string, production: boolean): University[] {
  const where = path.resolve(cwd, file);
  const fail = (message: string) => new UniversitiesFileError(`UNIVERSITIES_FILE ${where}: ${message}`);
  let text: string;
  try {
    text = readFileSync(where, 'utf8');
  } catch (err) {
    throw fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw fail(`is not valid JSON (${(err as Error).message})`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : issue.message;
    throw fail(`${place(raw, issue.path)}: ${message}`);
  }
  const universities = parsed.data.universities;
  const across = checkAcross(universities);
  if (across) throw fail(across);
  if (production) {
    const i = universities.findIndex((u) => u.lms && !u.lms.url.toLowerCase().startsWith('https:'));
    if (i >= 0) {
      throw fail(
        `universities[${i}] ("${universities[i]!.key}") lms.url: must be an https address in production, got "${universities[i]!.lms!.url}"`,
      );
    }
  }
  return universities;
}
