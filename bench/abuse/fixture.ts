// The students of the abuse bench, seeded once into a template data dir that every case starts from a copy of:
// an attacker, a victim with data of every kind (profile, a chat message, a document, an uploaded file, an
// unfinished resumable upload, a hot group), their common friend, a second student and 200 classmates.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { textPdf } from '../../packages/server/src/features/documents/test/fixtures.ts';
import { call, logIn, type Actor } from './http.ts';
import { serverEnv, sleep, startServer } from './server.ts';

export const PASSWORD = 'password123';
export const CLASSMATES = 200;
/** What the victim's unfinished resumable upload declares and has sent (distinct from anything else). */
export const VICTIM_UPLOAD = { length: 777_777, offset: 262_144 };
export const ATTACKER_IP = '198.51.100.7';
/** The victim's Canvas course and coursework item whose hot group the victim opens (the attacker does not take it). */
export const VICTIM_COURSE = { courseId: '5120', name: 'CHEM 2', itemId: 'lab-3', itemName: 'Lab report 3' };

export interface Fixture {
  attacker: Actor;
  victim: Actor;
  friend: Actor;
  peer: Actor;
  classmates: string[];
  /** The victim's own log-in cookies (the known device of the log-in guessing case). */
  victimDeviceCookie: string;
  victimDocumentId: string;
  victimFileUrl: string;
  victimUploadUrl: string;
  victimChatId: string;
  attackerChatId: string;
  /** The hot group the victim opened for a course the attacker does not take (null when refused). */
  hotGroup: { courseId: string; itemId: string; id: string } | null;
}

const chatIdFor = (a: string, b: string) => [a, b].sort().join('_');
const b64 = (s: string) => Buffer.from(s).toString('base64');

export function tusMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');
}

export async function uploadDocument(
  base: string,
  who: Actor,
  bytes: Buffer,
  name: string,
  type: string,
  signal?: AbortSignal,
) {
  const form = new FormData();
  form.append('courseId', 'seed-0');
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await call(base, who, 'POST', '/api/upload-document', { raw: form, signal });
  const id = (res.body as { document?: { id?: string } } | null)?.document?.id;
  return { ...res, id };
}

export async function documentStatus(base: string, who: Actor, id: string, signal?: AbortSignal) {
  const res = await call(base, who, 'GET', `/api/documents/${id}`, { signal });
  const body = res.body as { status?: string; progress?: { page: number; pages: number } | null } | null;
  return { status: body?.status ?? `http ${res.status}`, progress: body?.progress ?? null };
}

export const SETTLED = new Set(['done', 'failed']);

/** Polls a document until it is done or failed (or the signal ends the wait); answers the last status. */
export async function waitForDocument(base: string, who: Actor, id: string, signal?: AbortSignal, everyMs = 200) {
  for (;;) {
    const s = await documentStatus(base, who, id, signal);
    if (SETTLED.has(s.status) || signal?.aborted) return s;
    await sleep(everyMs);
  }
}

function seed(root: string, dataDir: string, users: object[]): Record<string, string> {
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'packages/server/src/cli/seed.ts', JSON.stringify(users)],
    { cwd: root, env: serverEnv(dataDir, 0), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (res.status !== 0) throw new Error(`seeding failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as Record<string, string>;
}

/** Seeds the template data dir with the server tree at `root`, and gives every actor a signed-in session. */
export async function buildFixture(root: string, dataDir: string): Promise<Fixture> {
  const who = {
    attacker: { email: 'mallory@g.ucla.edu', ip: ATTACKER_IP },
    victim: { email: 'victoria@g.ucla.edu', ip: '192.0.2.10' },
    friend: { email: 'frank@g.ucla.edu', ip: '192.0.2.11' },
    peer: { email: 'bea@g.ucla.edu', ip: '192.0.2.12' },
  };
  const classmates = Array.from({ length: CLASSMATES }, (_, i) => `classmate${i}@g.ucla.edu`);
  const ids = seed(root, dataDir, [
    { email: who.attacker.email, name: 'Mallory', courses: ['BIO 1'], friends: [who.friend.email] },
    {
      email: who.victim.email,
      name: 'Victoria',
      bio: 'I like cells.',
      courses: ['BIO 1', 'CHEM 2'],
      friends: [who.friend.email],
      // Imported from Canvas: the course of the victim's hot group.
      coursework: [
        {
          courseId: VICTIM_COURSE.courseId,
          courseName: VICTIM_COURSE.name,
          items: [{ id: VICTIM_COURSE.itemId, name: VICTIM_COURSE.itemName }],
        },
      ],
    },
    { email: who.friend.email, name: 'Frank', courses: ['BIO 1'] },
    { email: who.peer.email, name: 'Bea', courses: ['BIO 1'] },
    ...classmates.map((email, i) => ({ email, name: `Classmate ${i}`, courses: ['BIO 1'] })),
  ]);

  const server = await startServer(root, dataDir);
  try {
    const base = server.base;
    const actors = {} as Record<keyof typeof who, Actor>;
    for (const [key, w] of Object.entries(who) as [keyof typeof who, { email: string; ip: string }][]) {
      const login = await logIn(base, w.email, PASSWORD, w.ip);
      if (login.status !== 200) throw new Error(`log-in of ${w.email}: ${login.status}`);
      actors[key] = { name: key, email: w.email, id: ids[w.email]!, cookie: login.cookie, ip: w.ip };
    }
    const { victim, friend, attacker } = actors;
    const victimChatId = chatIdFor(victim.id, friend.id);
    const sent = await call(base, victim, 'POST', `/api/chats/${victimChatId}/messages`, {
      body: { id: crypto.randomUUID(), type: 'text', content: 'See you at the lab at 3.' },
    });
    if (sent.status !== 201) throw new Error(`victim message: ${sent.status} ${sent.text}`);

    const doc = await uploadDocument(
      base,
      victim,
      await textPdf([['Midterm on October 12. Bring a calculator.', 'Cells make ATP in mitochondria.']]),
      'syllabus.pdf',
      'application/pdf',
    );
    if (!doc.id) throw new Error(`victim document: ${doc.status} ${doc.text}`);
    const settled = await waitForDocument(base, victim, doc.id, AbortSignal.timeout(120_000));
    if (settled.status !== 'done') throw new Error(`victim document ended ${settled.status}`);

    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'me.jpg');
    const up = await call(base, victim, 'POST', '/api/uploads/profile-image', { raw: form });
    const victimFileUrl = (up.body as { file?: { url?: string } } | null)?.file?.url;
    if (!victimFileUrl) throw new Error(`victim upload: ${up.status} ${up.text}`);

    const created = await call(base, victim, 'POST', '/api/resumable', {
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(VICTIM_UPLOAD.length),
        'upload-metadata': tusMetadata({
          target: 'course-document',
          filename: 'thesis.pdf',
          filetype: 'application/pdf',
          courseId: 'seed-0',
        }),
      },
    });
    const location = created.headers.get('location');
    if (created.status !== 201 || !location) throw new Error(`victim tus: ${created.status} ${created.text}`);
    const victimUploadUrl = new URL(location, base).pathname;
    const patched = await call(base, victim, 'PATCH', victimUploadUrl, {
      raw: new Uint8Array(VICTIM_UPLOAD.offset).fill(7),
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
    });
    if (patched.status !== 204) throw new Error(`victim tus patch: ${patched.status} ${patched.text}`);

    // The victim's course only (imported coursework); an older server may refuse this.
    let hotGroup: Fixture['hotGroup'] = null;
    const { courseId, itemId } = VICTIM_COURSE;
    const hot = await call(base, victim, 'POST', '/api/hot-groups', {
      body: { courseId, itemId, name: VICTIM_COURSE.itemName },
    });
    const hotId = (hot.body as { id?: string } | null)?.id;
    if (hot.status < 300 && hotId) {
      const said = await call(base, victim, 'POST', `/api/groups/${encodeURIComponent(hotId)}/messages`, {
        body: { id: crypto.randomUUID(), type: 'text', content: 'My lab partner notes are in the drive.' },
      });
      if (said.status === 201) hotGroup = { courseId, itemId, id: hotId };
    }

    return {
      ...actors,
      attacker,
      classmates: classmates.map((e) => ids[e]!),
      victimDeviceCookie: victim.cookie,
      victimDocumentId: doc.id,
      victimFileUrl,
      victimUploadUrl,
      victimChatId,
      attackerChatId: chatIdFor(attacker.id, friend.id),
      hotGroup,
    };
  } finally {
    await server.stop();
  }
}

const md5 = (s: string | Uint8Array) => createHash('md5').update(s).digest('hex');

/** What the victim sees of their own data (each part fetched as the victim, from the victim's address). */
export async function victimState(base: string, fx: Fixture, signal: AbortSignal): Promise<Record<string, string>> {
  const v = fx.victim;
  const get = (url: string) => call(base, v, 'GET', url, { signal });
  const [profile, messages, doc, file, upload, hot, hotMessages] = await Promise.all([
    get('/api/profile'),
    get(`/api/chats/${fx.victimChatId}/messages`),
    get(`/api/documents/${fx.victimDocumentId}`),
    fetch(base + fx.victimFileUrl, { headers: { cookie: v.cookie, 'x-forwarded-for': v.ip }, signal })
      .then(async (r) => `${r.status} ${md5(new Uint8Array(await r.arrayBuffer()))}`)
      .catch((e: Error) => `error ${e.message}`),
    call(base, v, 'HEAD', fx.victimUploadUrl, { headers: { 'tus-resumable': '1.0.0' }, signal }),
    fx.hotGroup ? get(`/api/groups/${encodeURIComponent(fx.hotGroup.id)}`) : null,
    fx.hotGroup ? get(`/api/groups/${encodeURIComponent(fx.hotGroup.id)}/messages`) : null,
  ]);
  const p = profile.body as Record<string, unknown> | null;
  const m = messages.body as { messages?: { id: string; content: string }[] } | null;
  const d = doc.body as Record<string, unknown> | null;
  const state: Record<string, string> = {
    profile: `${profile.status} ${JSON.stringify([p?.name, p?.bio, p?.courses, p?.profilePicture])}`,
    message: `${messages.status} ${JSON.stringify(m?.messages?.map((x) => [x.id, x.content]))}`,
    document: `${doc.status} ${JSON.stringify([d?.status, d?.name, d?.size, d?.summary])}`,
    upload: file,
    resumable: `${upload.status} ${upload.headers.get('upload-offset')}/${upload.headers.get('upload-length')}`,
  };
  if (hot && hotMessages) {
    const g = hot.body as { name?: string; members?: { id: string }[] } | null;
    const hm = hotMessages.body as { messages?: { id: string; content: string }[] } | null;
    const members = g?.members?.map((x) => x.id).sort();
    state.hotGroup = `${hot.status} ${JSON.stringify([g?.name, members, hm?.messages?.map((x) => [x.id, x.content])])}`;
  }
  return state;
}
