// Coefficients fitted by bench/qa-fit.ts on SQuAD 2.0 dev's tuning articles (even positions in the file);
// rewrite them by running it (`node --import tsx bench/qa-fit.ts /path/dev-v2.0.json --write`), not by hand.
export const QA_MODEL = {
  /** Sentence ranker, in the order of SENTENCE_FEATURES. */
  sentence: [
    3.261, 0.3963, 1.4736, 2.5107, 0.261, 2.1062, 0.6174, 2.5386, 2.8228, 0.064, 0.4887, 1.3009, 1.9841, 1.4173,
    -1.3162,
  ],
  /** Short answers: how much each cue counts in a span's score (see answer-span.ts). */
  span: {
    side: 0.5,
    near: 1.5,
    keepFocus: 0,
    personBy: 1.2,
    notPerson: 0.8,
    title: 0.5,
    afterLast: 0.8,
    hops: 2,
    longer: 0.3,
    overlap: 3,
    placeAfter: 0.7,
    longest: 5,
    tooLong: 0.12,
    focusBeside: 1.5,
  },
  /** Choosing among the best sentences: the ranker's score plus these times the short answer's fit. */
  pick: { sentencesRead: 3, span: 0.4, typed: 0.25 },
  /** "Not in the document": logistic model over REFUSAL_FEATURES, refused below `threshold` or when the
   * sentence holds less than `minCoverage` of the question's weight. */
  refuse: {
    coefficients: [
      0.2031, 0.4278, -0.8746, -0.6937, 0.1412, 0.0177, 0.0969, -0.6834, 0.0078, 0.6485, 0.3542, 0.291, -0.5689,
      -1.1017,
    ],
    intercept: -1.5982,
    threshold: 0.2355,
    minCoverage: 0.15,
  },
};
