/**
 * The official SQuAD answer normalisation and token F1: the QA bench scores the offline answers with them, and the
 * practice quiz checks a student's short answer with the same leniency.
 */
export function normaliseAnswer(s: string): string {
  return s
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** Token-overlap F1 of two answers after normalisation (1 when both are empty). */
export function answerF1(prediction: string, gold: string): number {
  const p = normaliseAnswer(prediction).split(' ').filter(Boolean);
  const g = normaliseAnswer(gold).split(' ').filter(Boolean);
  if (!p.length || !g.length) return p.length === g.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (!same) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}
