/**
 * The release of StudyBuddy this code is (semantic versioning; CHANGELOG.md says what each one brought). The root
 * package.json carries the same number (a test holds them equal): bump both, and add the CHANGELOG entry, to release.
 */
export const APP_VERSION = '1.0.0';
