// Coefficients fitted by bench/qa-fit.ts on SQuAD 2.0 dev's tuning articles (even positions in the file);
// rewrite them by running it (`node --import tsx bench/qa-fit.ts /path/dev-v2.0.json --write`), not by hand.
export const QA_MODEL = {
  /** Sentence ranker, in the order of SENTENCE_FEATURES. */
  sentence: [
    3.2281, 0.4206, 1.5232, 2.5666, 0.1911, 2.21, 0.6016, 2.6948, 2.7699, 0.1173, 0.4299, 1.2403, 1.8558, 1.3772,
    -1.234, 0.2095,
  ],
  /** Short answers: how much each cue counts in a span's score (see answer-span.ts). */
  span: {
    side: 0,
    near: 1.5,
    keepFocus: 0,
    personBy: 1.2,
    notPerson: 0.8,
    title: 0.5,
    afterLast: 0.4,
    hops: 1,
    longer: 0.3,
    overlap: 5,
    placeAfter: 0.35,
    longest: 5,
    tooLong: 0.12,
    focusBeside: 1.5,
    between: 0,
    sameClause: 0.6,
    given: 1,
    listAsked: 2.5,
    listUnasked: 0.5,
    partOfName: 1,
  },
  /** Choosing among the best sentences: the ranker's score plus these times the short answer's fit. */
  pick: { sentencesRead: 5, span: 0.4, typed: 0 },
  /** "Not in the document": logistic model over REFUSAL_FEATURES, refused below `threshold` or when the
   * sentence holds less than `minCoverage` of the question's weight. */
  refuse: {
    coefficients: [
      0.0039, 0.3188, -0.6619, -0.8179, 0.2591, 0.0192, 0.3663, -0.6626, 0.06, 0.4461, 0.4574, 0.4181, -0.0879, -1.1421,
      -0.5164, -0.7388, -0.4331, 0.2882, -0.5215, -0.1632, 0.0797,
    ],
    intercept: -2.457,
    threshold: 0.2437,
    minCoverage: 0.1,
  },
};
