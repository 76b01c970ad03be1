// The LMS feature's public entry: the Canvas section of the profile (its page is loaded by the router).
export { LmsSection } from './lms-section.tsx';
