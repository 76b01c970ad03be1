import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, heap, GC, handles, event-loop delay through monitorEventLoopDelay):
 * one registry per process, shared by every app built in it. Each collectDefaultMetrics call starts an
 * event-loop delay timer and a GC observer that are never stopped, so tests that build many apps in one
 * process must not start one per app. Started on first use.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}
