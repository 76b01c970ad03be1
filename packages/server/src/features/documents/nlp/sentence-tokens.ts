import winkNLP, { type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { foldMarks } from './text-analysis.ts';

/** A token of one sentence, with what span extraction reads: part of speech, entity, stem and offsets. */
export interface Token {
  text: string;
  lower: string;
  /** Offsets in the sentence's text. */
  start: number;
  end: number;
  pos: string;
  /** 'word', 'number', 'punctuation', … (wink's token type). */
  type: string;
  stem: string;
  stop: boolean;
  /** wink's entity type (DATE, CARDINAL, …) when the token is part of one. */
  entity: string | null;
  /** Index of the first token of that entity. */
  entityStart: number;
  entityEnd: number;
}

// The passages' analysis reads sentences and parts of speech only; the few sentences an answer is looked for
// in are read again with entities (dates, numbers, money, percentages, ordinals), about 0.2 ms each.
let nlp: WinkMethods | null = null;
const getNlp = () => (nlp ??= winkNLP(model, ['sbd', 'pos', 'ner']));

const MAX_SENTENCE_CHARS = 2_000;

/** The tokens of a sentence (its first 2,000 characters), with their offsets in it. */
export function sentenceTokens(sentence: string): Token[] {
  const text = sentence.slice(0, MAX_SENTENCE_CHARS);
  const w = getNlp();
  const its = w.its;
  const doc = w.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out();
  const types = tokens.out(its.type);
  const tags = tokens.out(its.pos);
  const normals = tokens.out(its.normal);
  const stops = tokens.out(its.stopWordFlag) as unknown as boolean[];
  const out: Token[] = [];
  let cursor = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const at = text.indexOf(value, cursor);
    const start = at >= 0 ? at : cursor;
    const end = at >= 0 ? at + value.length : cursor;
    cursor = end;
    const type = types[i]!;
    out.push({
      text: value,
      lower: normals[i]!,
      start,
      end,
      pos: tags[i]!,
      type,
      stem: type === 'word' ? foldMarks(tokens.itemAt(i).out(its.stem as unknown as ItsFunction<string>)) : normals[i]!,
      stop: stops[i]!,
      entity: null,
      entityStart: -1,
      entityEnd: -1,
    });
  }
  const spans = doc.entities().out(its.span) as unknown as [number, number][];
  const kinds = doc.entities().out(its.type);
  spans.forEach(([a, b], k) => {
    for (let i = a; i <= b && i < out.length; i++) {
      Object.assign(out[i]!, { entity: kinds[k]!, entityStart: a, entityEnd: b });
    }
  });
  return out;
}
