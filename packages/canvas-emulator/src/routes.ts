/** The Canvas API endpoints the product uses, answered from the emulator's data. */
import type { Resource } from './model.ts';
import { assignmentsOf, listAssignments, listCourses } from './course-lists.ts';
import { courseOf, found, id, notFoundError, tabCheck, type RouteContext, type RouteResult } from './route-context.ts';
import { fileJson, moduleItemJson, moduleJson, pageJson } from './serialize-content.ts';
import { assignmentGroupJson, assignmentJson, courseJson, quizJson, topicJson } from './serializers.ts';

interface Route {
  pattern: RegExp;
  resource: Resource;
  handler: (ctx: RouteContext) => RouteResult;
}

export const ROUTES: Route[] = [
  {
    pattern: /^\/api\/v1\/users\/self(?:\/profile)?$/,
    resource: 'users',
    handler: (ctx) => ({
      one: {
        id: ctx.data.user.id,
        name: ctx.data.user.name,
        short_name: ctx.data.user.short_name,
        sortable_name: 'Lovelace, Ada',
        login_id: ctx.data.user.login_id,
        avatar_url: `${ctx.origin}/images/messages/avatar-50.png`,
        locale: null,
        effective_locale: 'en',
      },
    }),
  },
  { pattern: /^\/api\/v1\/courses$/, resource: 'courses', handler: listCourses },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)$/,
    resource: 'courses',
    handler: (ctx) => {
      const c = found(ctx.data.courses.find((x) => x.id === id(ctx.params[0])));
      return { one: courseJson(c, ctx.origin, ctx.data.user.id) };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/assignment_groups$/,
    resource: 'assignment_groups',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'assignments');
      const withAssignments = ctx.include.has('assignments');
      const all = assignmentsOf(ctx, course.id);
      const sub = ctx.include.has('submission');
      const list = ctx.data.assignmentGroups
        .filter((g) => g.course_id === course.id)
        .sort((a, b) => a.position - b.position)
        .map((g) =>
          assignmentGroupJson(
            g,
            withAssignments
              ? all
                  .filter((a) => a.assignment_group_id === g.id)
                  .map((a) => assignmentJson(a, ctx.origin, ctx.data, { submission: sub, userId: ctx.data.user.id }))
              : undefined,
          ),
        );
      return { list };
    },
  },
  { pattern: /^\/api\/v1\/courses\/(\d+)\/assignments$/, resource: 'assignments', handler: listAssignments },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/assignments\/(\d+)$/,
    resource: 'assignments',
    handler: (ctx) => {
      const course = courseOf(ctx);
      const a = found(ctx.data.assignments.find((x) => x.course_id === course.id && x.id === id(ctx.params[1])));
      return {
        one: assignmentJson(a, ctx.origin, ctx.data, {
          submission: ctx.include.has('submission'),
          userId: ctx.data.user.id,
        }),
      };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/quizzes$/,
    resource: 'quizzes',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'quizzes');
      const term = ctx.url.searchParams.get('search_term')?.toLowerCase();
      const list = ctx.data.quizzes
        .filter((q) => q.course_id === course.id && (!term || q.title.toLowerCase().includes(term)))
        .map((q) => quizJson(q, ctx.origin));
      return { list };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/quizzes\/(\d+)$/,
    resource: 'quizzes',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'quizzes');
      return {
        one: quizJson(
          found(ctx.data.quizzes.find((q) => q.course_id === course.id && q.id === id(ctx.params[1]))),
          ctx.origin,
        ),
      };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/discussion_topics$/,
    resource: 'discussion_topics',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'discussion_topics');
      const announcements = ctx.url.searchParams.get('only_announcements') === 'true';
      const list = ctx.data.topics
        .filter((t) => t.course_id === course.id && t.is_announcement === announcements)
        .sort((a, b) => a.position - b.position)
        .map((t) => topicJson(t, ctx.origin, ctx.data, { nestAssignment: true }));
      return { list };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/discussion_topics\/(\d+)$/,
    resource: 'discussion_topics',
    handler: (ctx) => {
      const course = courseOf(ctx);
      const t = found(ctx.data.topics.find((x) => x.course_id === course.id && x.id === id(ctx.params[1])));
      return { one: topicJson(t, ctx.origin, ctx.data, { nestAssignment: true }) };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/modules$/,
    resource: 'modules',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'modules');
      const list = ctx.data.modules
        .filter((m) => m.course_id === course.id)
        .sort((a, b) => a.position - b.position)
        .map((m) => moduleJson(m, ctx.origin, ctx.data, ctx.include));
      return { list };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/modules\/(\d+)$/,
    resource: 'modules',
    handler: (ctx) => {
      const course = courseOf(ctx);
      const m = found(ctx.data.modules.find((x) => x.course_id === course.id && x.id === id(ctx.params[1])));
      return { one: moduleJson(m, ctx.origin, ctx.data, ctx.include) };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/modules\/(\d+)\/items$/,
    resource: 'modules',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'modules');
      const m = found(ctx.data.modules.find((x) => x.course_id === course.id && x.id === id(ctx.params[1])));
      const details = ctx.include.has('content_details');
      return { list: m.items.map((i) => moduleItemJson(i, course.id, ctx.origin, ctx.data, details)) };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/files$/,
    resource: 'files',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'files');
      const term = ctx.url.searchParams.get('search_term')?.toLowerCase();
      const types = ctx.url.searchParams.getAll('content_types[]');
      const sort = ctx.url.searchParams.get('sort') ?? 'name';
      const desc = ctx.url.searchParams.get('order') === 'desc';
      const files = ctx.data.files
        .filter((f) => f.course_id === course.id)
        .filter((f) => !term || f.display_name.toLowerCase().includes(term))
        .filter((f) => !types.length || types.some((t) => f.content_type === t || f.content_type.startsWith(t + '/')))
        .sort((a, b) =>
          sort === 'size'
            ? a.content.length - b.content.length
            : sort === 'created_at'
              ? a.created_at.localeCompare(b.created_at)
              : a.display_name.localeCompare(b.display_name),
        );
      if (desc) files.reverse();
      return { list: files.map((f) => fileJson(f, ctx.origin)), bookmark: true };
    },
  },
  {
    pattern: /^\/api\/v1\/(?:courses\/(\d+)\/)?files\/(\d+)$/,
    resource: 'files',
    handler: (ctx) => {
      const f = found(ctx.data.files.find((x) => x.id === id(ctx.params[1])));
      const courseId = ctx.params[0] ? id(ctx.params[0]) : f.course_id;
      if (courseId !== f.course_id) throw notFoundError();
      courseOf({ ...ctx, params: [String(courseId)] });
      return { one: fileJson(f, ctx.origin) };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/pages$/,
    resource: 'pages',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'pages');
      const body = ctx.include.has('body');
      return {
        list: ctx.data.pages.filter((p) => p.course_id === course.id).map((p) => pageJson(p, ctx.origin, body)),
      };
    },
  },
  {
    pattern: /^\/api\/v1\/courses\/(\d+)\/pages\/([^/]+)$/,
    resource: 'pages',
    handler: (ctx) => {
      const course = courseOf(ctx);
      tabCheck(course, 'pages');
      const key = decodeURIComponent(ctx.params[1]!);
      const pages = ctx.data.pages.filter((p) => p.course_id === course.id);
      const byId = /^page_id:(\d+)$/.exec(key);
      const page =
        pages.find((p) => p.url === key) ?? (byId ? pages.find((p) => p.page_id === Number(byId[1])) : undefined);
      return { one: pageJson(found(page), ctx.origin, true) };
    },
  },
];

/** The route for a path, its captured ids, and the course it is about. */
export function matchRoute(pathname: string): { route: Route; params: string[]; courseId: number | null } | null {
  for (const route of ROUTES) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const params = m.slice(1).map((p) => p ?? '');
    const cm = /^\/api\/v1\/courses\/(\d+)/.exec(pathname);
    return { route, params, courseId: cm ? Number(cm[1]) : null };
  }
  return null;
}
