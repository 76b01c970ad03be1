/** Texts of stored files and uploads, part of MSG. */
export const FILES_MSG = {
  files: {
    notAnImage: 'Please select a valid image file.',
    tooManyPixels: (megapixels: number) =>
      `This image is too large. Images of up to ${megapixels} megapixels are accepted.`,
    tooLarge: 'This file is too large.',
    empty: 'The file is empty.',
    missing: 'Please choose a file to upload.',
    unknownTarget: 'Unknown upload destination.',
    tooLargeForDirect: 'Files over 256 KB must be sent with a resumable upload.',
    needsLength: 'The upload length must be declared when the upload is created.',
    canceled: 'Upload canceled.',
    retryLimitExceeded: 'The upload kept failing. Please check your connection and try again.',
    pause: 'Pause upload',
    resume: 'Resume upload',
    cancel: 'Cancel upload',
    paused: 'Paused',
  },
} as const;
