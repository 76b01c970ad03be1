// The student signed in last in this browser (kept with the rest of the student's browser data in lib/).
export { forgetLastUser, lastUser, rememberLastUser } from '../../lib/student-data.ts';
