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
    placeAfter: 0.7,
    longest: 5,
    tooLong: 0.12,
    focusBeside: 1.5,
    between: 0,
    sameClause: 0.6,
    given: 1,
  },
  /** Choosing among the best sentences: the ranker's score plus these times the short answer's fit. */
  pick: { sentencesRead: 5, span: 0.4, typed: 0 },
  /** "Not in the document": logistic model over REFUSAL_FEATURES, refused below `threshold` or when the
   * sentence holds less than `minCoverage` of the question's weight. */
  refuse: {
    coefficients: [
      -0.0146, 0.2807, -0.6373, -0.8367, 0.2635, 0.0219, 0.3352, -0.6666, 0.0389, 0.4716, 0.4729, 0.4248, -0.0528,
      -1.1664, -0.5494, -0.7729, -0.442, 0.2935, -0.5323, -0.2005, 0.0866,
    ],
    intercept: -2.5014,
    threshold: 0.2388,
    minCoverage: 0.1,
  },
};
