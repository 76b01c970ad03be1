/** Texts of short answers to questions about a document (issue 28 point 1), part of MSG. Beyond the spec. */
export const ANSWERS_MSG = {
  answers: {
    shortAnswer: 'Short answer',
    from: 'From',
    morePassages: 'More from the document',
  },
};
