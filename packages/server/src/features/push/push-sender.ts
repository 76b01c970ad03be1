import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import webpush, { WebPushError } from 'web-push';
import { PUSH_LIMITS } from '@studybuddy/shared/push';
import type { PushPayload } from '@studybuddy/shared/push-api';
import type { PushConfig } from '../../config.ts';
import type { SubscriptionRow } from './push.repository.ts';

export interface Delivery {
  subscription: SubscriptionRow;
  payload: PushPayload;
}

export interface PushSenderOptions {
  config: PushConfig;
  log: FastifyBaseLogger;
  /** The push service no longer knows the subscription (404/410): forget it. */
  onGone(subscriptionId: string): Promise<void>;
  /** Posts to push services at once. */
  concurrency?: number;
  /** Notices waiting (to be looked up or sent) beyond which new ones are dropped. */
  maxQueued?: number;
}

/** Push services collapse undelivered notices with the same Topic (at most 32 base64url characters). */
const topicOf = (tag: string) => createHash('sha256').update(tag).digest('base64url').slice(0, 32);

/**
 * Sends Web Push notices off the request path: work is queued and done a few at a time, each post to a push
 * service with a timeout, and the queue is bounded (a flood drops notices rather than memory).
 */
export class PushSender {
  private readonly queue: (() => Promise<void>)[] = [];
  private running = 0;
  private closed = false;
  private readonly idleWaiters = new Set<() => void>();
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly agent: Agent | undefined;

  constructor(private readonly opts: PushSenderOptions) {
    this.concurrency = opts.concurrency ?? 4;
    this.maxQueued = opts.maxQueued ?? 5000;
    const { caFile } = opts.config;
    this.agent = caFile
      ? new Agent({ keepAlive: true, ca: [...rootCertificates, readFileSync(caFile, 'utf8')] })
      : new Agent({ keepAlive: true });
  }

  /** Runs `find` later (it looks up who to notify) and sends what it returns. Never throws. */
  schedule(find: () => Promise<Delivery[]>): void {
    this.push(async () => {
      const deliveries = await find();
      for (const d of deliveries) this.push(() => this.send(d));
    });
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Stops taking work and lets what is in flight finish (each post has its timeout). */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await this.idle();
    this.agent?.destroy();
  }

  private push(task: () => Promise<void>) {
    if (this.closed) return;
    if (this.queue.length >= this.maxQueued) {
      this.opts.log.warn('push: queue full, a notice was dropped');
      return;
    }
    this.queue.push(task);
    this.pump();
  }

  private pump() {
    while (this.running < this.concurrency && this.queue.length) {
      const task = this.queue.shift()!;
      this.running += 1;
      void task()
        .catch((err: unknown) => this.opts.log.error({ err }, 'push: a notice failed'))
        .finally(() => {
          this.running -= 1;
          this.pump();
          if (!this.running && !this.queue.length) {
            for (const resolve of this.idleWaiters) resolve();
            this.idleWaiters.clear();
          }
        });
    }
  }

  private async send({ subscription, payload }: Delivery): Promise<void> {
    const { config } = this.opts;
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: { subject: config.subject, publicKey: config.publicKey, privateKey: config.privateKey },
          TTL: PUSH_LIMITS.ttlSeconds,
          timeout: PUSH_LIMITS.sendTimeoutMs,
          topic: topicOf(payload.tag),
          urgency: 'normal',
          contentEncoding: 'aes128gcm',
          agent: this.agent,
        },
      );
    } catch (err) {
      if (err instanceof WebPushError && (err.statusCode === 404 || err.statusCode === 410)) {
        await this.opts.onGone(subscription.id);
        return;
      }
      const status = err instanceof WebPushError ? err.statusCode : undefined;
      this.opts.log.warn({ status, err: status ? undefined : err }, 'push: the push service refused a notice');
    }
  }
}
