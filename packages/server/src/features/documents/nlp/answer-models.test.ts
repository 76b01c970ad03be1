import { describe, expect, it } from 'vitest';
import { buildIndex } from './answer.ts';
import { kindCue, wordsOf } from './kind-cues.ts';
import { buildPassages } from './passages.ts';
import { answerableProbability, REFUSAL_FEATURES, refusalFeatures } from './refusal.ts';
import { linearScore, rankSentences, SENTENCE_FEATURES, termWeights } from './sentence-rank.ts';
import { queryTerms } from './text-analysis.ts';

const page = (n: number, text: string) => ({ page: n, unit: 'page' as const, label: `page ${n}`, text });

function ranked(text: string[], question: string, kind: Parameters<typeof kindCue>[1] = 'thing') {
  const { passages } = buildPassages(text.map((t, i) => page(i + 1, t)));
  const index = buildIndex(passages);
  const terms = queryTerms(question);
  const weights = termWeights(index.words, terms);
  const options = { kind, questionWords: wordsOf(question) };
  return { index, weights, ranked: rankSentences(passages, index.search, terms, weights, options) };
}

describe('cues of the asked kind in a sentence', () => {
  it('finds a year or month for "when", a number for "how many", a new name for "who", a cause for "why"', () => {
    const none = new Set<string>();
    expect(kindCue('The treaty was signed in 1648.', 'date', none)).toBe(1);
    expect(kindCue('It was signed in May.', 'date', none)).toBe(1);
    expect(kindCue('The treaty was signed by both sides.', 'date', none)).toBe(0);
    expect(kindCue('About forty ships sailed.', 'number', none)).toBe(1);
    expect(kindCue('Many ships sailed.', 'number', none)).toBe(0);
    const question = wordsOf('Who led the Huguenots?');
    expect(kindCue('The Huguenots were led by Henri de Rohan.', 'person', question)).toBe(1);
    expect(kindCue('Many of the Huguenots fled.', 'person', question)).toBe(0);
    expect(kindCue('Prices rose because supply fell.', 'reason', none)).toBe(1);
    expect(kindCue('Prices rose.', 'thing', none)).toBe(0.5);
  });

  it('reads the lower-case words of a text', () => {
    expect([...wordsOf("Who led France's army in 1648?")]).toEqual(['who', 'led', 'france', 's', 'army', 'in', '1648']);
  });
});

describe('the sentence ranker', () => {
  it('scores a linear model as the sum of coefficient times value', () => {
    expect(linearScore([1, -2, 0.5], [3, 1, 4])).toBe(3);
    expect(linearScore([1], [2, 5])).toBe(2);
  });

  it('gives every sentence its features, and prefers one holding a date for a "when" question', () => {
    const { ranked: out } = ranked(
      ['The council met to discuss the treaty with great care. The council signed the treaty in 1648.'],
      'When did the council sign the treaty?',
      'date',
    );
    for (const r of out) expect(r.features).toHaveLength(SENTENCE_FEATURES.length);
    expect(out[0]!.sentence.text).toBe('The council signed the treaty in 1648.');
    expect(out[0]!.features[SENTENCE_FEATURES.indexOf('cue')]).toBe(1);
    expect(out[1]!.features[SENTENCE_FEATURES.indexOf('cue')]).toBe(0);
  });

  it('credits the words of the question the sentence before holds (what "it" refers back to)', () => {
    const { ranked: out } = ranked(
      ['Mitochondria are found in most cells. They produce energy as ATP.'],
      'What do mitochondria produce?',
    );
    const second = out.find((r) => r.index === 1)!;
    expect(second.features[SENTENCE_FEATURES.indexOf('before')]).toBeGreaterThan(0);
    expect(second.coverage).toBe(1);
  });
});

describe('"not in the document"', () => {
  const text = ['The Edict of Nantes granted the Huguenots rights in 1598.', 'Louis XIV revoked it in 1685.'];
  const at = (name: (typeof REFUSAL_FEATURES)[number]) => REFUSAL_FEATURES.indexOf(name);
  const features = (question: string) => {
    const { index, weights, ranked: out } = ranked(text, question, 'date');
    return refusalFeatures(question, out, out[0]!, null, weights, index.words);
  };

  it('notices a name or number of the question the passage lacks, and a negation only one side has', () => {
    const plain = features('When did the Edict of Nantes grant the Huguenots rights?');
    expect(plain).toHaveLength(REFUSAL_FEATURES.length);
    expect(plain[at('missingName')]).toBe(0);
    expect(plain[at('negation')]).toBe(0);
    expect(plain[at('coverage')]).toBe(1);
    expect(features('When did the Edict of Toulouse grant the Huguenots rights?')[at('missingName')]).toBe(1);
    expect(features('When did the Edict of Nantes not grant the Huguenots rights?')[at('negation')]).toBe(1);
  });

  it('counts question words the document never uses', () => {
    const f = features('When did the Edict of Nantes grant the Huguenots pensions?');
    expect(f[at('absent')]).toBeGreaterThan(0);
    expect(f[at('coverage')]).toBeLessThan(1);
    expect(f[at('missingWords')]).toBeCloseTo(1 / 3);
  });

  it('turns the features into a probability with the logistic model', () => {
    const model = { coefficients: [2, -1], intercept: -1 };
    expect(answerableProbability([0.5, 0], model)).toBeCloseTo(0.5);
    expect(answerableProbability([2, 0], model)).toBeCloseTo(1 / (1 + Math.exp(-3)));
    expect(answerableProbability([0.5, 3], model)).toBeLessThan(0.5);
  });
});
