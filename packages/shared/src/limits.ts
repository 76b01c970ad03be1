import { FIRST_LOAD_LIMITS } from './limits/first-load.ts';

/** Business constants of requirements §9. */
export const LIMITS = {
  ...FIRST_LOAD_LIMITS,
  passwordMin: 6,
  lmsTokenMin: 20,
  lmsMaxCourses: 10,
  additionalImages: 4,
  coursesPerProfile: 10,
  chatImageBytes: 5 * 1024 * 1024,
  ratingMin: 1,
  ratingMax: 5,
  feedbackMaxChars: 5000,
  mobileBreakpointPx: 768,
  sidebarWidthPx: 250,
  carouselMs: 10_000,
  unreadBadgeCap: 99,
  redirectShortMs: 2000,
  redirectLongMs: 3000,
  courseworkCacheMs: 24 * 60 * 60 * 1000,
  forcedRefreshesPerDay: 3,
  coursePalette: 15,
  calendarPickerDays: 35,
  /**
   * Calendar export (requirements §3, §9): the event starts 10 minutes before the due time; reminders e-mail 1440,
   * popup 10.
   */
  calendarEventLeadMinutes: 10,
  calendarEmailReminderMinutes: 1440,
  calendarPopupReminderMinutes: 10,
  calendarExportMax: 100,
  ocrMessageMs: 5000,
  openUploadedDocMs: 500,
  unreadPollMs: 5000,
  resumableThresholdBytes: 262_144,
  chunkStartBytes: 262_144,
  chunkMaxBytes: 33_554_432,
  storageOperationRetryMs: 120_000,
  storageUploadRetryMs: 600_000,
  verificationCodeMs: 24 * 60 * 60 * 1000,
  resetCodeMs: 60 * 60 * 1000,
  crop: { jpegQuality: 0.95, zoomMin: 1, zoomMax: 3, zoomStep: 0.1, nudge: [1, 10, 100] },
} as const;

export const YEARS = ['Freshman', 'Sophomore', 'Junior', 'Senior'] as const;
export type Year = (typeof YEARS)[number];
