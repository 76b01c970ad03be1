import type { FastifyBaseLogger } from 'fastify';
import { Listeners, type Envelope, type EventBus } from './event-bus.ts';

/** The bus of a single instance: publishing delivers to this process's listeners at once. */
export function createMemoryBus(log: Pick<FastifyBaseLogger, 'error'>): EventBus {
  const listeners = new Listeners<[Envelope]>();
  const gaps = new Listeners<[]>();
  let closed = false;
  const onError = (err: unknown) => log.error({ err }, 'realtime listener failed');
  return {
    kind: 'memory',
    publish(envelope) {
      if (!closed) listeners.emit(onError, envelope);
    },
    subscribe: (fn) => listeners.add(fn),
    onGap: (fn) => gaps.add(fn),
    async close() {
      closed = true;
    },
  };
}
