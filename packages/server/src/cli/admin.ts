// `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`: makes an account an admin of the moderation
// area (issue 24), or stops it being one. Each change is written in the audit log. The ADMINS setting names admins
// too; a revoke cannot undo that.
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { changeGrant } from '../features/moderation/admins.service.ts';
import { grantOutcomeSchema, grantsToken, GRANTS_ROUTE } from '../features/moderation/operator.routes.ts';
import { findRunningServer } from '../platform/backup/admin-access.ts';

const usage = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>';

class CommandError extends Error {}

type Outcome = z.infer<typeof grantOutcomeSchema>;

/** Through the running server (an embedded database is one process's), with the token derived from SECRET_KEY. */
async function viaServer(url: string, secretKey: string, action: 'grant' | 'revoke', email: string) {
  let res: Response;
  try {
    res = await fetch(url + GRANTS_ROUTE, {
      method: 'POST',
      headers: { authorization: `Bearer ${grantsToken(secretKey)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action, email }),
    });
  } catch (err) {
    throw new CommandError(
      `A server uses this data dir but does not answer at ${url} (${(err as Error).message}). ` +
        'Wait until it has started, or stop it and run the command again.',
    );
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message ?? res.statusText;
    throw new CommandError(`The server refused (${res.status}): ${message}`);
  }
  return grantOutcomeSchema.parse(body);
}

async function run(action: 'grant' | 'revoke', email: string): Promise<Outcome> {
  const config = loadConfig();
  const server = config.databaseUrl ? null : await findRunningServer(config.dataDir);
  if (server) return viaServer(server.url, config.secretKey, action, email);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await changeGrant({ db: database.db, config }, action, email);
  } finally {
    await database.close();
  }
}

try {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [action, email, ...rest] = positionals;
  if ((action !== 'grant' && action !== 'revoke') || !email || rest.length) throw new CommandError(usage);
  const outcome = await run(action, email);
  if (outcome.kind === 'noAccount') throw new CommandError(`There is no account with the e-mail ${email}.`);
  const lines =
    action === 'grant'
      ? [outcome.changed ? `${outcome.email} is now an admin.` : `${outcome.email} was an admin already.`]
      : [
          outcome.changed
            ? `${outcome.email} is no longer granted admin.`
            : `${outcome.email} had no admin grant to revoke.`,
          ...(outcome.viaSetting
            ? [`The ADMINS setting still names ${outcome.email}: remove it there too, then restart the server.`]
            : []),
        ];
  console.log(lines.join('\n'));
} catch (err) {
  if (
    err instanceof CommandError ||
    err instanceof ConfigError ||
    (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    console.error(`npm run admin: ${(err as Error).message}`);
    process.exit(1);
  }
  throw err;
}
