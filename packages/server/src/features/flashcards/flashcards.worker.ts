// Worker thread of the flashcards feature: cards and quiz questions are made from a document's pages here, so the
// API's event loop never waits on the sentence analysis.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { makeCards, type SourcePage } from './card-maker.ts';

try {
  setPriority(0, (workerData as { nice?: number } | null)?.nice ?? 10);
} catch {
  // not permitted here: run at normal priority
}

export interface CardRequest {
  id: number;
  pages: SourcePage[];
  deadline: number;
  max: number;
}

const port = parentPort!;
port.on('message', (req: CardRequest) => {
  try {
    port.postMessage({ id: req.id, value: makeCards(req.pages, { deadline: req.deadline, max: req.max }) });
  } catch (err) {
    port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
  }
});
