import { describe, expect, it } from 'vitest';
import { makeCards, readablePage } from './card-maker.ts';
import { COURSE_TEXT } from './flashcards.test-kit.ts';

describe('making cards', () => {
  it('stops at the deadline with the cards made so far and the last page read', () => {
    const pages = Array.from({ length: 500 }, (_, i) => ({ page: i + 1, label: `page ${i + 1}`, text: COURSE_TEXT }));
    let clock = 0;
    // A fake clock: every page read costs 10 "ms"; the budget ends after 100.
    const made = makeCards(pages, { deadline: 100, max: 10_000, now: () => (clock += 10) });
    expect(made.stoppedAtPage).toBeGreaterThan(0);
    expect(made.stoppedAtPage).toBeLessThan(12);
    expect(made.cards.length).toBeGreaterThan(0);
    expect(Math.max(...made.cards.map((c) => c.page))).toBeLessThanOrEqual(made.stoppedAtPage!);
  });

  it('skips symbol soup, pages without sentences and words no language has', () => {
    expect(readablePage('#$%^&*(){}[]'.repeat(500))).toBe('');
    expect(readablePage(`${'x'.repeat(5_000)} Cells divide.`)).toBe('Cells divide.');
    const none = makeCards(
      [
        { page: 1, label: '1', text: '§§§ ### @@@ '.repeat(1_000) },
        { page: 2, label: '2', text: '1\n2\n3\n4\n5\n6' },
        { page: 3, label: '3', text: '' },
      ],
      { deadline: Date.now() + 60_000, max: 100 },
    );
    expect(none).toEqual({ cards: [], stoppedAtPage: null });
  });
});
