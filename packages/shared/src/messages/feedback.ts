/** Texts of the feedback form, part of MSG. */
export const FEEDBACK_MSG = {
  feedback: {
    title: 'Your Voice Matters!',
    submit: 'Submit Feedback',
    thanks: 'Thank you for your feedback!',
    failed: 'Failed to submit feedback. Please try again.',
    textRequired: 'Please enter your feedback.',
    ratingRequired: 'Please select a rating.',
  },
} as const;
