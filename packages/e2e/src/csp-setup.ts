import { afterAll, afterEach } from 'vitest';
import { takeCspViolations } from './browser.ts';

/** Acceptance of issue 13: no page a journey visits may report a Content-Security-Policy violation. */
function failOnViolations() {
  const seen = takeCspViolations();
  if (seen.length) throw new Error(`Content-Security-Policy violations:\n${seen.join('\n')}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
