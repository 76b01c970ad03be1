// The peer of the chat benchmark: ejabberd from Debian's packages, configured here in a temporary directory on a
// loopback port, storing everything in its own PostgreSQL database (SQL auth, rooms, message archive `mod_mam`
// on for chats and rooms, so every message is durable as ours are), driven by `@xmpp/client` sessions: the same
// users, one-to-one chats (type chat to the friend's bare JID) and groups (MUC rooms of 10).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { client, xml, type XmppClient, type XmppElement } from '@xmpp/client';
import pg from 'pg';
import type { Handlers, Population, Target } from './load.ts';
import { freePort, onCleanup, pidsMatching, sleep, stopChild } from './util.ts';

const EJABBERDCTL = '/usr/sbin/ejabberdctl';
const SCHEMA = '/usr/share/ejabberd/sql/pg.sql';
/** ejabberd's PostgreSQL driver is a package of its own (only suggested by ejabberd's). */
const PGSQL_DRIVER = 'erlang-p1-pgsql';
const DOMAIN = 'localhost';
const MUC = `conference.${DOMAIN}`;
const PASSWORD = 'bench-password';

/**
 * Installs ejabberd from Debian's packages when it is missing and this runs as root. Answers why the leg must be
 * skipped, or null when ejabberd is there.
 */
export function ensureEjabberd(): string | null {
  const installed = (pkg: string) =>
    spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');
  if (installed('ejabberd') && installed(PGSQL_DRIVER)) return null;
  const what = `apt-get install -y ejabberd ${PGSQL_DRIVER}`;
  if (process.getuid?.() !== 0) return `ejabberd is not installed and this is not root (${what})`;
  console.log(`  installing ejabberd (${what})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', 'ejabberd', PGSQL_DRIVER], {
      env,
      encoding: 'utf8',
      timeout: 600_000,
    });
  let r = install();
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-q'], { env, encoding: 'utf8', timeout: 300_000 });
    r = install();
  }
  if (r.status !== 0 || !existsSync(EJABBERDCTL))
    return `apt-get install ejabberd failed: ${(r.stderr ?? '').slice(-500)}`;
  return null;
}

function config(port: number, database: string): string {
  return `hosts:
  - "${DOMAIN}"
loglevel: warning
hide_sensitive_log_data: true
certfiles: []
listen:
  -
    port: ${port}
    ip: "127.0.0.1"
    module: ejabberd_c2s
    starttls: false
    backlog: 1024
    max_stanza_size: 262144
    access: c2s
sql_type: pgsql
sql_server: "127.0.0.1"
sql_port: 5432
sql_database: "${database}"
sql_username: "postgres"
sql_password: ""
sql_pool_size: 10
default_db: sql
auth_method: sql
auth_password_format: plain
acl:
  local:
    user_regexp: ""
access_rules:
  local:
    allow: local
  c2s:
    allow: all
modules:
  mod_disco: {}
  mod_mam:
    db_type: sql
    default: always
  mod_muc:
    db_type: sql
    access: all
    access_create: local
    access_persistent: local
    access_mam: all
    history_size: 0
    max_users: 1000
    default_room_options:
      mam: true
      persistent: true
      public: false
`;
}

/** Resolves once something accepts connections on the port. */
async function waitPort(port: number, alive: () => boolean, logs: () => string, timeoutMs = 120_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(250)) {
    if (!alive()) throw new Error(`ejabberd exited:\n${logs()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
  }
  throw new Error(`ejabberd did not listen on ${port}:\n${logs()}`);
}

/** One XMPP session per user (PLAIN over loopback: no TLS, as our bench sockets). */
async function connectAll(port: number, users: number): Promise<XmppClient[]> {
  const clients: XmppClient[] = new Array(users);
  for (let i = 0; i < users; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, users - i) }, async (_, j) => {
        const u = i + j;
        for (let attempt = 1; ; attempt++) {
          const xmpp = client({
            service: `xmpp://127.0.0.1:${port}`,
            domain: DOMAIN,
            resource: 'bench',
            timeout: 60_000,
            credentials: (authenticate: (c: object, mechanism: string) => Promise<void>) =>
              authenticate({ username: `u${u}`, password: PASSWORD }, 'PLAIN'),
          });
          xmpp.reconnect.stop();
          xmpp.on('error', () => undefined);
          clients[u] = xmpp;
          try {
            await xmpp.start();
            break;
          } catch (err) {
            await Promise.race([xmpp.stop().catch(() => undefined), sleep(1000)]);
            if (attempt === 3) throw err;
          }
        }
        await clients[u]!.send(xml('presence'));
      }),
    );
  }
  return clients;
}

/** Waits for one stanza matching `test` on a client. */
function nextStanza(c: XmppClient, test: (s: XmppElement) => boolean, timeoutMs = 60_000): Promise<XmppElement> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      c.removeListener('stanza', on);
      reject(new Error('timed out waiting for a stanza'));
    }, timeoutMs);
    const on = (s: XmppElement) => {
      if (!test(s)) return;
      clearTimeout(timer);
      c.removeListener('stanza', on);
      resolve(s);
    };
    c.on('stanza', on);
  });
}

/** Every group becomes a MUC room its members join; the first creates it (an instant room, defaults accepted). */
async function joinRooms(clients: XmppClient[], pop: Population, room: (g: number) => string) {
  const join = async (u: number, g: number) => {
    const c = clients[u]!;
    const self = nextStanza(
      c,
      (s) => s.is('presence') && s.attrs.from === `${room(g)}/u${u}` && s.attrs.type !== 'unavailable',
    );
    await c.send(
      xml(
        'presence',
        { to: `${room(g)}/u${u}` },
        xml('x', { xmlns: 'http://jabber.org/protocol/muc' }, xml('history', { maxstanzas: '0' })),
      ),
    );
    const presence = await self;
    const created = presence
      .getChildren('x')
      .some((x) => x.getChildren('status').some((st) => st.attrs.code === '201'));
    if (created) {
      await c.iqCaller.request(
        xml(
          'iq',
          { type: 'set', to: room(g) },
          xml(
            'query',
            { xmlns: 'http://jabber.org/protocol/muc#owner' },
            xml('x', { xmlns: 'jabber:x:data', type: 'submit' }),
          ),
        ),
      );
    }
  };
  for (let k = 0; k < pop.groups.length; k += 10) {
    await Promise.all(
      pop.groups.slice(k, k + 10).map(async (g) => {
        await join(g.members[0]!, g.index);
        await Promise.all(g.members.slice(1).map((u) => join(u, g.index)));
      }),
    );
  }
}

export async function ejabberdTarget(pop: Population, database: { url: string; name: string }): Promise<Target> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sb-bench-ejabberd-'));
  const node = `sbbench${randomBytes(4).toString('hex')}@localhost`;
  let child: ReturnType<typeof spawn> | undefined;
  let clients: XmppClient[] = [];
  const cleanup = onCleanup(async () => {
    await Promise.allSettled(clients.filter(Boolean).map((c) => Promise.race([c.stop(), sleep(2000)])));
    if (child) await stopChild(child, { group: true, graceMs: 10_000 });
    // Whatever of the node outlived its process group (nothing, normally).
    for (const pid of pidsMatching(node)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await rm(dir, { recursive: true, force: true });
  });
  try {
    // Schema and users in bulk, straight into the database (not one ejabberdctl call per user).
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      await db.query(readFileSync(SCHEMA, 'utf8'));
      await db.query(
        `insert into users (username, password) select 'u' || i, $2 from generate_series(0, $1::int - 1) as i`,
        [pop.users, PASSWORD],
      );
    } finally {
      await db.end();
    }
    const port = await freePort();
    await mkdir(path.join(dir, 'logs'));
    await mkdir(path.join(dir, 'spool'));
    await writeFile(path.join(dir, 'ejabberd.yml'), config(port, database.name));
    // The node runs as this user (root), not through `su ejabberd`: su's PAM session lowers the open-file limit
    // to 1,024, and the 985th client was refused.
    await writeFile(
      path.join(dir, 'ejabberdctl.cfg'),
      'ERL_OPTIONS="-env ERL_CRASH_DUMP_BYTES 0"\nEXEC_CMD=as_current_user\nEJABBERD_BYPASS_WARNINGS=true\n',
    );
    await writeFile(
      path.join(dir, 'inetrc'),
      existsSync('/etc/ejabberd/inetrc') ? readFileSync('/etc/ejabberd/inetrc') : '',
    );
    const logs: string[] = [];
    child = spawn(
      EJABBERDCTL,
      [
        '--config-dir',
        dir,
        '--logs',
        path.join(dir, 'logs'),
        '--spool',
        path.join(dir, 'spool'),
        '--node',
        node,
        'foreground',
      ],
      { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
    const logText = () => {
      const file = path.join(dir, 'logs', 'ejabberd.log');
      return logs.join('') + (existsSync(file) ? readFileSync(file, 'utf8').slice(-4000) : '');
    };
    await waitPort(port, () => child!.exitCode === null, logText);
    const beam = pidsMatching(node).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('beam');
      } catch {
        return false;
      }
    });
    if (!beam.length) throw new Error(`ejabberd's beam process not found:\n${logText()}`);
    clients = await connectAll(port, pop.users);
    const room = (g: number) => `g${g}@${MUC}`;
    await joinRooms(clients, pop, room);
    let handlers: Handlers | undefined;
    clients.forEach((c, i) =>
      c.on('stanza', (s: XmppElement) => {
        if (!s.is('message')) return;
        if (s.attrs.type === 'error') handlers?.failed(s.attrs.id, s.toString());
        else if (s.attrs.id && s.getChild('body')) handlers?.delivered(i, s.attrs.id);
      }),
    );
    return {
      name: 'ejabberd (PostgreSQL, mod_mam)',
      pids: beam,
      database: database.name,
      acks: false,
      send(sender, conv, id) {
        const to = conv.kind === 'chat' ? `u${conv.members.find((m) => m !== sender)}@${DOMAIN}` : room(conv.index);
        const type = conv.kind === 'chat' ? 'chat' : 'groupchat';
        void clients[sender]!.send(xml('message', { to, type, id }, xml('body', {}, `m ${id.slice(0, 8)}`))).catch(
          (err: unknown) => handlers?.failed(id, String(err)),
        );
      },
      listen: (h) => (handlers = h),
      async stored({ chat, group }) {
        const db = new pg.Client({ connectionString: database.url });
        await db.connect();
        try {
          const { rows } = await db.query<{ kind: string | null; n: string }>(
            'select kind, count(*) as n from archive group by kind order by kind',
          );
          const counts = rows.map((r) => `${r.n} ${r.kind ?? '?'}`).join(', ');
          return `archive rows: ${counts || 'none'} (sent: ${chat} chat messages, each archived by sender and receiver; ${group} to rooms, archived by the room)`;
        } finally {
          await db.end();
        }
      },
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
