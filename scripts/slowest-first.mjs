// A Vitest sequencer that starts the files known to take longest first, then the rest in Vitest's own order
// (slowest first by the last run's cache, else largest first). A fresh clone has no cache: a five-minute file
// picked last would run alone at the end while the other workers idle.
import path from 'node:path';
import { BaseSequencer } from 'vitest/node';

/** `names`: file names (no folders), slowest first. */
export function slowestFirst(names) {
  const rank = (spec) => {
    const at = names.indexOf(path.basename(spec.moduleId));
    return at === -1 ? names.length : at;
  };
  return class SlowestFirst extends BaseSequencer {
    async sort(files) {
      const sorted = await super.sort(files);
      return [...sorted].sort((a, b) => rank(a) - rank(b));
    }
  };
}
