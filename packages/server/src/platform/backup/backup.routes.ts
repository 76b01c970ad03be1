import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError, forbidden } from '../errors.ts';
import { errorResponses } from '../openapi.ts';
import { announceServer, BACKUP_ROUTE, isLocalUnproxied, tokenMatches, withdrawServer } from './admin-access.ts';
import { installBackupSchedule } from './backup-schedule.ts';
import { dumperOf, pgliteOf, startServerArchive } from './server-archive.ts';

/**
 * `POST /api/admin/backup` answers a backup archive (.tar.gz) of the embedded database, the stored files and the
 * secret key, taken while the server keeps serving. Only for `npm run backup` on this machine: loopback peers
 * without proxy headers, with the bearer token derived from SECRET_KEY. The listening server also writes
 * DATA_DIR/server.json so the command finds it. With BACKUP_SCHEDULE the app also writes backups on schedule.
 */
export function backupRoutes(ctx: AppContext) {
  const { dataDir } = ctx.config;

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
    installBackupSchedule(app, ctx);

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
      if (!pgliteOf(ctx)) {
        throw new AppError(
          409,
          'not_embedded',
          'This server uses PostgreSQL: back it up with pg_dump and copy the bucket (README, Back-up and restore).',
        );
      }
      const made = await startServerArchive(ctx, dumperOf(ctx));
      if (!made) throw new AppError(409, 'backup_running', 'A backup is already being made; try again when it ends.');
      made.archive.once('close', () => {
        ctx.log.info({ ms: Date.now() - made.started }, 'backup archive sent');
        void made.release();
      });
      const name = `studybuddy-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
      return reply
        .type('application/gzip')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(made.archive);
    });
  };
}
