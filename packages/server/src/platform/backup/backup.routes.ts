import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError, forbidden } from '../errors.ts';
import { errorResponses } from '../openapi.ts';
import { announceServer, BACKUP_ROUTE, isLocalUnproxied, tokenMatches, withdrawServer } from './admin-access.ts';
import { createArchive } from './archive.ts';
import { dumpPglite } from './pglite-dump.ts';
import { linkSnapshot } from './snapshot.ts';

const SNAPSHOT_PREFIX = 'backup-snapshot-';

function pgliteOf(ctx: AppContext): PGlite | null {
  const client = (ctx.db as unknown as { $client?: unknown }).$client;
  return ctx.database.kind === 'pglite' && client instanceof PGlite ? client : null;
}

/**
 * `POST /api/admin/backup` answers a backup archive (.tar.gz) of the embedded database, the stored files and the
 * secret key, taken while the server keeps serving. Only for `npm run backup` on this machine: loopback peers
 * without proxy headers, with the bearer token derived from SECRET_KEY. The listening server also writes
 * DATA_DIR/server.json so the command finds it.
 */
export function backupRoutes(ctx: AppContext) {
  const { dataDir } = ctx.config;
  let running = false;

  return async (app: FastifyInstance) => {
    app.server.once('listening', () => {
      const address = app.server.address();
      if (address && typeof address === 'object') {
        announceServer(dataDir, address as AddressInfo).catch((err: unknown) =>
          ctx.log.warn({ err }, 'could not write DATA_DIR/server.json; npm run backup will not find this server'),
        );
      }
    });
    app.addHook('onClose', () => withdrawServer(dataDir));

    const schema = {
      summary: 'A backup archive of the embedded database, files and secret key (npm run backup, this machine only)',
      tags: ['operations'],
      response: {
        200: {
          description: 'The .tar.gz archive',
          content: { 'application/gzip': { schema: z.custom<NodeJS.ReadableStream>().describe('The archive') } },
        },
        ...errorResponses,
      },
    };
    app.post(BACKUP_ROUTE, { schema }, async (request, reply) => {
      if (!isLocalUnproxied(request)) throw forbidden('Backups are made from this machine only (npm run backup).');
      if (!tokenMatches(ctx.config.secretKey, request.headers.authorization)) {
        throw forbidden('The backup token does not match this server’s SECRET_KEY.');
      }
      const client = pgliteOf(ctx);
      if (!client) {
        throw new AppError(
          409,
          'not_embedded',
          'This server uses PostgreSQL: back it up with pg_dump and copy the bucket (README, Back-up and restore).',
        );
      }
      if (running) throw new AppError(409, 'backup_running', 'A backup is already being made; try again when it ends.');
      running = true;

      const snapshot = path.join(dataDir, SNAPSHOT_PREFIX + randomBytes(6).toString('hex'));
      const cleanup = () => {
        running = false;
        return rm(snapshot, { recursive: true, force: true });
      };
      try {
        // Snapshots a crash left behind (only one backup runs at a time).
        for (const name of await readdir(dataDir)) {
          if (name.startsWith(SNAPSHOT_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true });
        }
        const started = Date.now();
        const filesDir = ctx.storage.driver === 'fs' ? path.join(dataDir, 'files') : undefined;
        // Links before the dump keep files the dump may reference even if they are deleted right after it; links
        // after it add the files written meanwhile. Files are content-addressed, so an extra file is harmless.
        if (filesDir) await linkSnapshot(filesDir, snapshot);
        const { dump, migrations } = await dumpPglite(client);
        if (filesDir) await linkSnapshot(filesDir, snapshot);
        const archive = createArchive({
          secretKey: ctx.config.secretKey,
          dbDump: dump,
          migrations,
          madeBy: 'server',
          storage: ctx.storage.driver,
          filesRoot: filesDir ? snapshot : undefined,
        });
        archive.once('close', () => {
          ctx.log.info({ ms: Date.now() - started }, 'backup archive sent');
          void cleanup();
        });
        const name = `studybuddy-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
        return reply
          .type('application/gzip')
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .header('Cache-Control', 'no-store')
          .send(archive);
      } catch (err) {
        await cleanup();
        throw err;
      }
    });
  };
}
