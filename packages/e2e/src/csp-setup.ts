import { afterAll, afterEach } from 'vitest';
import { takeCspViolations } from './browser.ts';

/** Acceptance of issue 13: no page a journey visits may report a Content-Security-Policy violation. */
function failOnViolations() {
  const seen = takeCspViolations();
  if (!seen.length) return;
  const report = `Content-Security-Policy violations:\n${seen.join('\n')}`;
  console.error(report); // also shown when a retry passes
  throw new Error(report);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
