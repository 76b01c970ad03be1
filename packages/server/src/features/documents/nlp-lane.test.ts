import { afterAll, describe, expect, it } from 'vitest';
import type { SummaryResult } from './extraction/extract-types.ts';
import { NlpLane, NlpTimeout } from './nlp-lane.ts';

const lane = new NlpLane(60_000, { idleMs: 5_000 });
afterAll(() => lane.close());

describe('NLP lane', () => {
  it('summarises on its worker, ends a request over its time budget and carries on with a fresh worker', async () => {
    const prose = 'Mitochondria produce ATP through cellular respiration in the inner membrane of the cell. ';
    const first = await lane.run<SummaryResult>({ op: 'summarise', text: prose.repeat(5) });
    expect(first.summary).toContain('Mitochondria produce ATP');

    // About 4 MB of varied sentences: seconds of work, far past a 300 ms budget.
    const big = Array.from({ length: 90_000 }, (_, i) => `Cell ${i} divides ${i % 7} times by mitosis. `).join('');
    const t0 = Date.now();
    const late = lane.run(
      { op: 'summarise', pages: [{ page: 1, unit: 'page', label: 'page 1', text: big }] },
      {
        budgetMs: 300,
      },
    );
    await expect(late).rejects.toBeInstanceOf(NlpTimeout);
    await expect(late).rejects.toMatchObject({ statusCode: 422, code: 'text_too_slow' });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(lane.load).toBe(0);

    const next = await lane.run<SummaryResult>({ op: 'summarise', text: prose.repeat(5) });
    expect(next.summary).toBe(first.summary);
  });
});
