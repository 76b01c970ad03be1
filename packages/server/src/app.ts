import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import type { Config } from './config.ts';
import { openDatabase } from './db/connect.ts';
import type { AppContext } from './platform/context.ts';
import { createConnectionGuard } from './platform/connection-guard.ts';
import { createDiskGuard, installDiskGuard } from './platform/disk-guard.ts';
import { installErrorHandling } from './platform/errors.ts';
import { installApiDocs } from './platform/openapi.ts';
import { installCompression } from './platform/compression.ts';
import { installFairShare } from './platform/fair-share.ts';
import { createLifecycle, installLifecycle } from './platform/lifecycle.ts';
import { loggerOptions, type LogStream } from './platform/logger.ts';
import { createMailer, type Mailer } from './platform/mail.ts';
import { createMetrics } from './platform/metrics/metrics.ts';
import { installMetrics } from './platform/metrics/metrics.routes.ts';
import { installRequestContext, requestIdOptions } from './platform/request-context.ts';
import { installSameOriginGuard } from './platform/same-origin.ts';
import { sharedRateLimitStore } from './platform/shared-rate-limit-store.ts';
import { createRealtime } from './platform/realtime/realtime.ts';
import { realtimeRoutes } from './platform/realtime/realtime.routes.ts';
import { installSecurityHeaders } from './platform/security-headers.ts';
import { installSpa } from './platform/spa.ts';
import { createStorage } from './platform/storage/create-storage.ts';
import { createSessionStore } from './features/auth/session.ts';
import { createRegistry } from './platform/registry.ts';
import { installSessionResolver, SESSION_COOKIE } from './platform/session.ts';
import { authFeature } from './features/auth/auth.feature.ts';
import type { WrapHasher } from './features/auth/password-hasher.ts';
import { avatarsFeature } from './features/avatars/avatars.feature.ts';
import { healthFeature } from './features/health/health.feature.ts';
import { feedbackFeature } from './features/feedback/feedback.feature.ts';
import { filesFeature } from './features/files/files.feature.ts';
import { profileFeature } from './features/profile/profile.feature.ts';
import { socialFeature } from './features/social/social.feature.ts';
import { chatFeature } from './features/chat/chat.feature.ts';
import { groupsFeature } from './features/groups/groups.feature.ts';
import { lmsFeature } from './features/lms/lms.feature.ts';
import type { LmsOptions } from './features/lms/lms-state.ts';
import { documentsFeature, type DocumentsOptions } from './features/documents/documents.feature.ts';
import { calendarFeature } from './features/calendar/calendar.feature.ts';
import { searchFeature } from './features/search/search.feature.ts';
import { pushFeature } from './features/push/push.feature.ts';
import { dataExportFeature } from './features/data-export/data-export.feature.ts';
import { moderationFeature } from './features/moderation/moderation.feature.ts';
import { universitiesFeature } from './features/universities/universities.feature.ts';
import { scheduleFeature } from './features/schedule/schedule.feature.ts';
import { studySessionsFeature } from './features/study-sessions/study-sessions.feature.ts';
import { flashcardsFeature } from './features/flashcards/flashcards.feature.ts';

export interface BuildOptions {
  /** Replace the configured mailer (tests capture mail this way or use a real SMTP server via config). */
  mailer?: Mailer;
  logger?: boolean;
  /** Log lines go here instead of stdout (tests read what is logged); implies logging on. */
  logStream?: LogStream;
  /** Sees every route as it is added (the API description test lists them). */
  onRoute?: (route: RouteOptions) => void;
  /** What the documents feature is built with instead of its defaults (tests: a Canvas files source of their own). */
  documents?: DocumentsOptions;
  /** Wraps the accounts feature's password hasher (tests count its costly calls). */
  wrapHasher?: WrapHasher;
  /** The clock of the accounts feature's log-in limits (rate limiter, log-in guard); tests move it instead of waiting a window. */
  authClock?: () => Date;
  /** What the LMS feature is built with instead of its defaults (tests: a clock of their own, shorter Canvas timings). */
  lms?: LmsOptions;
}

export type App = FastifyInstance & { ctx: AppContext };

/** Builds the whole server from a config; only main.ts listens. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  // Slow clients: header, body and idle timeouts, connections per address (platform/connection-guard.ts).
  const connectionGuard = createConnectionGuard(config.connections, config.trustProxy);
  const app = Fastify({
    logger: options.logger === false && !options.logStream ? false : loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    ...requestIdOptions(config.trustProxy),
    ...connectionGuard.serverOptions(),
    bodyLimit: 1024 * 1024,
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  installRequestContext(app);
  installErrorHandling(app);
  connectionGuard.install(app);
  // Before any route: the compression hook is added to the routes registered after it.
  await installCompression(app);
  await installApiDocs(app);
  installSecurityHeaders(app, config.publicUrl);
  // Only JSON and multipart bodies are accepted; anything else is a 415.
  app.removeContentTypeParser('text/plain');

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  app.addHook('onClose', () => database.close());
  const realtime = await createRealtime({ databaseUrl: config.databaseUrl, log: app.log });
  app.addHook('onClose', () => realtime.close());
  const lifecycle = createLifecycle();
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        dataDir: config.dataDir,
        log: app.log,
        logLinks: process.env.NODE_ENV !== 'production',
      }),
    storage: await createStorage(config),
    realtime,
    log: app.log,
    metrics: createMetrics({ database, realtime, lifecycle, log: app.log }),
    lifecycle,
    diskGuard: createDiskGuard(config.dataDir, config.diskMinFreeBytes),
    sessions: createSessionStore(database.db),
    registry: createRegistry(),
  };
  installLifecycle(app, lifecycle);
  installMetrics(app, ctx);

  // external
  await app.register(fastifyCookie);
  // Per-route limits: on PostgreSQL counted in the shared rate_limits table, so every instance sees every hit;
  // PGlite (one process) keeps the plugin's in-memory store.
  await app.register(fastifyRateLimit, {
    global: false,
    ...(config.databaseUrl ? { store: sharedRateLimitStore(database.db) } : {}),
  });
  installFairShare(
    app,
    { perClient: config.limits.requestsPerClient, perIp: config.limits.requestsPerIp, waiting: 1000 },
    SESSION_COOKIE,
  );
  // platform
  installSameOriginGuard(app, config.publicUrl);
  installSessionResolver(app, ctx.sessions);
  installDiskGuard(app, ctx.diskGuard);
  await app.register(realtimeRoutes(ctx));
  await app.register((await import('./platform/backup/backup.routes.ts')).backupRoutes(ctx));
  // features: each a plugin that registers what it plugs into (ctx.registry, ctx.realtime) and its routes
  await app.register(healthFeature(ctx));
  // The universities setting is checked against the stored students first; a refusal closes what is open.
  try {
    await app.register(universitiesFeature(ctx));
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  await app.register(authFeature(ctx, { wrapHasher: options.wrapHasher, now: options.authClock }));
  await app.register(avatarsFeature(ctx));
  await app.register(feedbackFeature(ctx));
  await app.register(await filesFeature(ctx));
  await app.register(profileFeature(ctx));
  await app.register(socialFeature(ctx));
  await app.register(chatFeature(ctx));
  await app.register(groupsFeature(ctx));
  await app.register(lmsFeature(ctx, options.lms));
  await app.register(documentsFeature(ctx, options.documents));
  await app.register(calendarFeature(ctx));
  await app.register(searchFeature(ctx));
  await app.register(pushFeature(ctx));
  await app.register(dataExportFeature(ctx));
  await app.register(moderationFeature(ctx));
  await app.register(scheduleFeature(ctx));
  await app.register(studySessionsFeature(ctx));
  await app.register(flashcardsFeature(ctx));

  await installSpa(app, config.webDist, config.publicUrl);
  return Object.assign(app, { ctx }) as App;
}
