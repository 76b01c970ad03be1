// Worker thread of an .ics import: parsing a 2 MB calendar takes seconds, never on the API's event loop.
import { parentPort } from 'node:worker_threads';
import { IcsError, parseIcs, type ParseLimits } from './ics-parse.ts';

parentPort!.once('message', (msg: { body: string; limits: ParseLimits }) => {
  try {
    parentPort!.postMessage({ ok: true, occurrences: parseIcs(msg.body, msg.limits) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, reason: err instanceof IcsError ? err.reason : 'not_ical' });
  }
});
