// Coefficients fitted by bench/qa-fit.ts on SQuAD 2.0 dev's tuning articles (even positions in the file);
// rewrite them by running it (`node --import tsx bench/qa-fit.ts /path/dev-v2.0.json --write`), not by hand.
export const QA_MODEL = {
  /** Sentence ranker, in the order of SENTENCE_FEATURES. */
  sentence: [
    3.261, 0.3963, 1.4736, 2.5107, 0.261, 2.1062, 0.6174, 2.5386, 2.8228, 0.064, 0.4887, 1.3009, 1.9841, 1.4173,
    -1.3162,
  ],
  /** Choosing among the best sentences: the ranker's score plus these times the short answer's fit. */
  pick: { sentencesRead: 3, span: 0.4, typed: 0.25 },
  /** "Not in the document": logistic model over REFUSAL_FEATURES, refused below `threshold` or when the
   * sentence holds less than `minCoverage` of the question's weight. */
  refuse: {
    coefficients: [
      0.1976, 0.4402, -0.8999, -0.6847, 0.1409, 0.0144, 0.0867, -0.6832, 0.0043, 0.6833, 0.3534, 0.2824, -0.5638,
      -1.0819,
    ],
    intercept: -1.5364,
    threshold: 0.2435,
    minCoverage: 0.15,
  },
};
