// Coefficients fitted by bench/qa-fit.ts on SQuAD 2.0 dev's tuning articles (even positions in the file);
// rewrite them by running it (`node --import tsx bench/qa-fit.ts /path/dev-v2.0.json --write`), not by hand.
export const QA_MODEL = {
  /** Sentence ranker, in the order of SENTENCE_FEATURES. */
  sentence: [
    3.2967, 0.3657, 1.4918, 2.5111, 0.2482, 2.1432, 0.5926, 2.5147, 2.6389, 0.0812, 0.5032, 1.2526, 1.9826, 1.4038,
    -1.2797, 0.2339,
  ],
  /** Short answers: how much each cue counts in a span's score (see answer-span.ts). */
  span: {
    side: 0,
    near: 1.5,
    keepFocus: 0,
    personBy: 1.2,
    notPerson: 0.8,
    title: 0.5,
    afterLast: 0.8,
    hops: 2,
    longer: 0.3,
    overlap: 5,
    placeAfter: 0.35,
    longest: 5,
    tooLong: 0.12,
    focusBeside: 1.5,
  },
  /** Choosing among the best sentences: the ranker's score plus these times the short answer's fit. */
  pick: { sentencesRead: 5, span: 0.4, typed: 0.25 },
  /** "Not in the document": logistic model over REFUSAL_FEATURES, refused below `threshold` or when the
   * sentence holds less than `minCoverage` of the question's weight. */
  refuse: {
    coefficients: [
      0.0611, 0.4102, -0.6317, -0.8968, 0.2506, 0.0174, 0.3235, -0.6568, 0.0633, 0.4406, 0.4993, 0.4693, -0.0111,
      -1.1182, -0.5741, -0.783, -0.4302, 0.3014, -0.4924, -0.2831, 0.0752,
    ],
    intercept: -2.465,
    threshold: 0.2254,
    minCoverage: 0.15,
  },
};
