/** Texts of "Find a study group": classmates of a course by free time, invited to a new group (issue 27 part 5). */
export const STUDY_GROUPS_MSG = {
  studyGroups: {
    title: 'Find a study group',
    intro: 'Classmates of a course at your college with the most free time in common with you.',
    course: 'Course',
    pickCourse: 'Choose one of your courses',
    noCourses: 'Add your courses to your profile to find a study group.',
    find: 'Find classmates',
    noClassmates: 'No classmates of this course to suggest yet.',
    groupName: 'Group name',
    defaultName: (course: string) => `${course} study group`,
    invite: (n: number) => `Invite ${n} to a new group`,
    invited: (n: number) => `Group created. ${n} ${n === 1 ? 'classmate was' : 'classmates were'} invited.`,
    openGroup: 'Open the group',
    noFreeTime: 'No free time in common yet',
    // Invitations (the invitee's side)
    invitations: 'Group invitations',
    invitationFrom: (name: string, course: string) => `${name} invited you to study ${course} together.`,
    accept: 'Accept',
    decline: 'Decline',
    // Refusals
    courseRequired: 'Please choose a course.',
    notYourCourse: 'You can only find a study group for one of your own courses.',
    selectClassmate: 'Please choose at least one classmate.',
    tooManyInvitees: 'You can invite at most 5 classmates at once.',
    notClassmate: 'You can only invite classmates who take this course at your college.',
    noInvitation: 'This invitation is no longer open.',
    failed: 'Could not create the study group. Please try again.',
    invitesPerDay: 'study group invitations sent per day',
  },
  // The group header on phones: its secondary actions (members, add members, leave) in a menu.
  groupHeader: {
    more: 'More group actions',
  },
};
