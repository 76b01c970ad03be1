import type { FastifyInstance } from 'fastify';
import { connectionAccepted } from '../db/io-turns.ts';

/**
 * Connections the kernel holds for the server until it accepts them (capped by net.core.somaxconn, 4096 on current
 * kernels). Node's default of 511 overflowed under a burst of 600 slow clients while the event loop was busy
 * (issue 31 case 4): the kernel then dropped new connections, students' and health probes' alike, and each waited
 * out SYN retries of 1, 3, 7… s. Queued instead, they are accepted in turn, and those over CONNECTIONS_PER_IP are
 * closed at once.
 */
export const LISTEN_BACKLOG = 4096;

/** Starts serving on the configured address; the server's address. */
export function listen(app: FastifyInstance, where: { port: number; host: string }): Promise<string> {
  app.server.on('connection', connectionAccepted);
  return app.listen({ port: where.port, host: where.host, backlog: LISTEN_BACKLOG });
}
