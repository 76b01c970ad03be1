import type { Sentence } from './text-analysis.ts';

export interface OfflineSummary {
  summary: string;
  keyTerms: string[];
}

const DAMPING = 0.85;
const MAX_SENTENCES = 1500;

/** Sentences worth ranking: real prose, not headers, page numbers or tables. */
function isCandidate(s: Sentence): boolean {
  if (s.words < 5 || s.words > 80) return false;
  const letters = (s.text.match(/\p{L}/gu) ?? []).length;
  return letters / s.text.length > 0.55 && s.terms.length >= 2;
}

/** Number of sentences a summary keeps: about √n, between 3 and 8. */
export function summaryLength(candidates: number): number {
  return Math.max(3, Math.min(8, Math.round(Math.sqrt(candidates) * 0.8)));
}

/**
 * TextRank (Mihalcea & Tarau 2004): sentences are nodes, edges weigh shared content words normalised by
 * sentence lengths; PageRank picks the central ones. Similarities go through a term index, so long
 * documents cost what their shared words cost, not n².
 */
export function rankSentences(sentences: Sentence[]): number[] {
  const n = sentences.length;
  const termSets = sentences.map((s) => new Set(s.terms));
  const postings = new Map<string, number[]>();
  termSets.forEach((set, i) => {
    for (const t of set) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  // Words in most sentences link everything to everything: skip them on long texts.
  const maxDf = n > 20 ? Math.max(5, Math.floor(n * 0.25)) : n;
  const overlap = new Map<number, number>(); // key i*n+j (i<j)
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > maxDf) continue;
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const key = list[a]! * n + list[b]!;
        overlap.set(key, (overlap.get(key) ?? 0) + 1);
      }
    }
  }
  const neighbours: { j: number; w: number }[][] = Array.from({ length: n }, () => []);
  const logLen = termSets.map((s) => Math.log(Math.max(2, s.size)));
  for (const [key, shared] of overlap) {
    const i = Math.floor(key / n);
    const j = key % n;
    const w = shared / (logLen[i]! + logLen[j]!);
    neighbours[i]!.push({ j, w });
    neighbours[j]!.push({ j: i, w });
  }
  const outWeight = neighbours.map((list) => list.reduce((sum, e) => sum + e.w, 0));
  let score: number[] = new Array<number>(n).fill(1 / Math.max(1, n));
  for (let iter = 0; iter < 40; iter++) {
    const next: number[] = new Array<number>(n).fill((1 - DAMPING) / Math.max(1, n));
    for (let i = 0; i < n; i++) {
      if (!outWeight[i]) continue;
      const share = (DAMPING * score[i]!) / outWeight[i]!;
      for (const { j, w } of neighbours[i]!) next[j]! += share * w;
    }
    const delta = next.reduce((d, v, i) => d + Math.abs(v - score[i]!), 0);
    score = next;
    if (delta < 1e-6) break;
  }
  return score;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / Math.max(1, a.size + b.size - shared);
}

/** Picks the key sentences of a text (TextRank, redundancy removed) and returns them in reading order. */
export function keySentences(all: Sentence[], count?: number): Sentence[] {
  let candidates = all.filter(isCandidate);
  if (candidates.length === 0) return all.filter((s) => s.words >= 3).slice(0, 3);
  if (candidates.length > MAX_SENTENCES) {
    // Keep the sentences richest in the document's frequent words before the graph step.
    const freq = new Map<string, number>();
    for (const s of candidates) for (const t of new Set(s.terms)) freq.set(t, (freq.get(t) ?? 0) + 1);
    candidates = candidates
      .map((s, i) => ({ s, i, v: s.terms.reduce((sum, t) => sum + Math.log(1 + (freq.get(t) ?? 0)), 0) / s.words }))
      .sort((a, b) => b.v - a.v)
      .slice(0, MAX_SENTENCES)
      .sort((a, b) => a.i - b.i)
      .map((x) => x.s);
  }
  const n = candidates.length;
  const scores = rankSentences(candidates);
  // A slight lead bias: openings of documents tend to state what they are about.
  const ranked = candidates
    .map((s, i) => ({ s, i, score: scores[i]! * (1 + 0.15 * (1 - i / n)) }))
    .sort((a, b) => b.score - a.score);
  const want = count ?? summaryLength(n);
  const picked: { s: Sentence; i: number; set: Set<string> }[] = [];
  for (const r of ranked) {
    const set = new Set(r.s.terms);
    if (picked.some((p) => jaccard(p.set, set) > 0.5)) continue;
    picked.push({ s: r.s, i: r.i, set });
    if (picked.length >= want) break;
  }
  return picked.sort((a, b) => a.i - b.i).map((p) => p.s);
}

const GENERIC_PHRASES = new Set(['page', 'pages', 'example', 'figure', 'table', 'section', 'chapter', 'thing', 'way']);

/** The most frequent noun phrases (longer phrases preferred), in their most common spelling. */
export function keyTerms(sentences: Sentence[], max = 8): string[] {
  const counts = new Map<string, { count: number; forms: Map<string, number> }>();
  for (const s of sentences) {
    for (const phrase of s.phrases) {
      const key = phrase.toLowerCase();
      if (GENERIC_PHRASES.has(key)) continue;
      const entry = counts.get(key) ?? { count: 0, forms: new Map<string, number>() };
      entry.count++;
      entry.forms.set(phrase, (entry.forms.get(phrase) ?? 0) + 1);
      counts.set(key, entry);
    }
  }
  const minCount = sentences.length > 30 ? 2 : 1;
  const scored = [...counts.entries()]
    .filter(([, e]) => e.count >= minCount)
    .map(([key, e]) => ({
      key,
      count: e.count,
      score: e.count * (1 + 0.6 * (key.split(' ').length - 1)),
      forms: e.forms,
    }))
    .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
  const chosen: typeof scored = [];
  for (const c of scored) {
    const covered = chosen.some((k) => (k.key.includes(c.key) || c.key.includes(k.key)) && c.count <= k.count * 1.5);
    if (covered) continue;
    chosen.push(c);
    if (chosen.length >= max) break;
  }
  return chosen.map((c) => [...c.forms.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
}

/** Longest sentence a summary or answer quotes whole: text without full stops can be one 'sentence'. */
const MAX_QUOTE_CHARS = 600;

/** A sentence on one line, cut at a word before 600 characters when longer. */
export function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  if (line.length <= MAX_QUOTE_CHARS) return line;
  const space = line.lastIndexOf(' ', MAX_QUOTE_CHARS);
  return `${line.slice(0, space > MAX_QUOTE_CHARS / 2 ? space : MAX_QUOTE_CHARS)}…`;
}

/** The offline summary: the key sentences in reading order, and the key terms. */
export function summariseOffline(sentences: Sentence[]): OfflineSummary {
  const picked = keySentences(sentences);
  const summary = picked
    .map((s) => quote(s.text))
    .join(' ')
    .trim();
  return { summary, keyTerms: keyTerms(sentences) };
}
