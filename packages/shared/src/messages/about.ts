/** Texts of About StudyBuddy (issue 26 point 3), part of MSG. Beyond the spec on purpose. */
export const ABOUT_MSG = {
  about: {
    menuItem: 'About StudyBuddy',
    title: 'About StudyBuddy',
    version: (version: string) => `Version ${version}`,
    body: 'StudyBuddy helps students find study partners, chat, study in groups and keep up with their coursework.',
    close: 'Close',
  },
};
