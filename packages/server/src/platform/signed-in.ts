import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser, signedIn } from './session.ts';

/**
 * Makes every route of the plugin `app` (and of its child plugins, never its parent's: fastify encapsulation) a
 * signed-in student's: a signed-out request is answered 401 before its input is validated. A feature registers its
 * signed-in routes in such a plugin instead of naming the hook on each route.
 */
export function signedInOnly(app: FastifyInstance): void {
  app.addHook('preValidation', signedIn);
}

/** The signed-in student's id, in a route of a `signedInOnly` plugin. */
export const studentId = (request: FastifyRequest): string => requireUser(request).id;
