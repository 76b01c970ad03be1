/** Course names and weekly topics the demo data is made of (a plausible first-year schedule). */
export interface CatalogCourse {
  code: string;
  title: string;
  topics: string[];
}

export const CATALOG: CatalogCourse[] = [
  {
    code: 'COM SCI 31',
    title: 'Introduction to Computer Science I',
    topics: ['Hello, C++', 'Control Flow', 'Strings', 'Functions', 'Arrays', 'Pointers', 'Structs', 'Classes'],
  },
  {
    code: 'MATH 31B',
    title: 'Integration and Infinite Series',
    topics: ['Exponentials', 'Inverse Functions', 'Integration by Parts', 'Improper Integrals', 'Sequences', 'Series'],
  },
  {
    code: 'PHYSICS 1A',
    title: 'Mechanics',
    topics: ['Kinematics', "Newton's Laws", 'Work and Energy', 'Momentum', 'Rotation', 'Oscillations'],
  },
  {
    code: 'CHEM 14A',
    title: 'Atomic and Molecular Structure',
    topics: ['Quantum Numbers', 'Electron Configuration', 'Lewis Structures', 'VSEPR', 'Hybridization', 'Acids'],
  },
  {
    code: 'ECON 1',
    title: 'Principles of Economics',
    topics: ['Supply and Demand', 'Elasticity', 'Consumer Choice', 'Costs', 'Competition', 'Monopoly'],
  },
  {
    code: 'PSYCH 10',
    title: 'Introductory Psychology',
    topics: ['Research Methods', 'The Brain', 'Perception', 'Learning', 'Memory', 'Development'],
  },
  {
    code: 'STATS 10',
    title: 'Introduction to Statistical Reasoning',
    topics: ['Data Collection', 'Distributions', 'Correlation', 'Probability', 'Sampling', 'Confidence Intervals'],
  },
  {
    code: 'LING 20',
    title: 'Introduction to Linguistics',
    topics: ['Phonetics', 'Phonology', 'Morphology', 'Syntax', 'Semantics', 'Language Change'],
  },
  {
    code: 'HIST 13A',
    title: 'History of the United States',
    topics: ['Colonial America', 'Revolution', 'The Constitution', 'Jacksonian Era', 'Expansion', 'Civil War'],
  },
  {
    code: 'ENGCOMP 3',
    title: 'English Composition, Rhetoric, and Language',
    topics: ['Rhetorical Situation', 'Close Reading', 'Thesis', 'Evidence', 'Counterargument', 'Revision'],
  },
  {
    code: 'LS 7A',
    title: 'Cell and Molecular Biology',
    topics: ['Macromolecules', 'Membranes', 'Enzymes', 'Respiration', 'Photosynthesis', 'Cell Cycle'],
  },
  {
    code: 'PHILOS 7',
    title: 'Introduction to Philosophy of Mind',
    topics: ['Dualism', 'Behaviorism', 'Identity Theory', 'Functionalism', 'Consciousness', 'Free Will'],
  },
];

/** Concluded last term: only listed with enrollment_state=completed. */
export const COMPLETED_COURSE: CatalogCourse = {
  code: 'MATH 31A',
  title: 'Differential and Integral Calculus',
  topics: ['Limits', 'Derivatives', 'Chain Rule', 'Optimization', 'Integrals', 'Fundamental Theorem'],
};

export const ASSIGNMENT_GROUPS = [
  { name: 'Homework', weight: 30 },
  { name: 'Projects', weight: 20 },
  { name: 'Quizzes', weight: 15 },
  { name: 'Exams', weight: 25 },
  { name: 'Participation', weight: 10 },
] as const;

export const ASSIGNMENT_KINDS = ['Problem Set', 'Lab', 'Reading Response', 'Project Milestone', 'Worksheet', 'Essay'];
