/** What every route handler gets, the Canvas error answers, and the checks handlers share. */
import type { EmuCourse, EmuData, Resource } from './model.ts';
import type { Json, JsonObject } from './json.ts';

export class EmuHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export const notFoundError = () =>
  new EmuHttpError(404, { errors: [{ message: 'The specified resource does not exist.' }] });
export const tabDisabledError = () => new EmuHttpError(404, { message: 'That page has been disabled for this course' });
export const unauthorizedError = (status: 401 | 403) =>
  new EmuHttpError(status, {
    status: 'unauthorized',
    errors: [{ message: 'user not authorized to perform that action' }],
  });

export type RouteResult = { list: JsonObject[]; bookmark?: boolean } | { one: JsonObject };

export interface RouteContext {
  url: URL;
  origin: string;
  data: EmuData;
  params: string[];
  include: Set<string>;
  /** Status for "valid token, no permission" (403 with api_auth_error_updates, else the legacy 401). */
  forbiddenStatus: 401 | 403;
}

export const id = (s: string | undefined) => Number(s);

export function courseOf(ctx: RouteContext): EmuCourse {
  const course = ctx.data.courses.find((c) => c.id === id(ctx.params[0]));
  if (!course) throw notFoundError();
  if (course.enrollment === 'restricted') throw unauthorizedError(ctx.forbiddenStatus);
  return course;
}

export function tabCheck(course: EmuCourse, resource: Resource) {
  if (course.disabledTabs.includes(resource)) throw tabDisabledError();
}

export function found<T>(x: T | undefined): T {
  if (x === undefined) throw notFoundError();
  return x;
}

export const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
