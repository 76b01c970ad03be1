/** Course names and weekly topics the demo data is made of (a plausible first-year schedule). */
export interface CatalogCourse {
  code: string;
  title: string;
  topics: string[];
}

/** One course from `code | title | topic; topic; …` (its weekly topics in order). */
function course(line: string): CatalogCourse {
  const [code = '', title = '', topics = ''] = line.split('|').map((cell) => cell.trim());
  return { code, title, topics: topics.split(';').map((topic) => topic.trim()) };
}

export const CATALOG: CatalogCourse[] = `
COM SCI 31 | Introduction to Computer Science I | Hello, C++; Control Flow; Strings; Functions; Arrays; Pointers; Structs; Classes
MATH 31B | Integration and Infinite Series | Exponentials; Inverse Functions; Integration by Parts; Improper Integrals; Sequences; Series
PHYSICS 1A | Mechanics | Kinematics; Newton's Laws; Work and Energy; Momentum; Rotation; Oscillations
CHEM 14A | Atomic and Molecular Structure | Quantum Numbers; Electron Configuration; Lewis Structures; VSEPR; Hybridization; Acids
ECON 1 | Principles of Economics | Supply and Demand; Elasticity; Consumer Choice; Costs; Competition; Monopoly
PSYCH 10 | Introductory Psychology | Research Methods; The Brain; Perception; Learning; Memory; Development
STATS 10 | Introduction to Statistical Reasoning | Data Collection; Distributions; Correlation; Probability; Sampling; Confidence Intervals
LING 20 | Introduction to Linguistics | Phonetics; Phonology; Morphology; Syntax; Semantics; Language Change
HIST 13A | History of the United States | Colonial America; Revolution; The Constitution; Jacksonian Era; Expansion; Civil War
ENGCOMP 3 | English Composition, Rhetoric, and Language | Rhetorical Situation; Close Reading; Thesis; Evidence; Counterargument; Revision
LS 7A | Cell and Molecular Biology | Macromolecules; Membranes; Enzymes; Respiration; Photosynthesis; Cell Cycle
PHILOS 7 | Introduction to Philosophy of Mind | Dualism; Behaviorism; Identity Theory; Functionalism; Consciousness; Free Will
`
  .trim()
  .split('\n')
  .map(course);

/** Concluded last term: only listed with enrollment_state=completed. */
export const COMPLETED_COURSE: CatalogCourse = course(
  'MATH 31A | Differential and Integral Calculus | Limits; Derivatives; Chain Rule; Optimization; Integrals; Fundamental Theorem',
);

export const ASSIGNMENT_GROUPS = [
  { name: 'Homework', weight: 30 },
  { name: 'Projects', weight: 20 },
  { name: 'Quizzes', weight: 15 },
  { name: 'Exams', weight: 25 },
  { name: 'Participation', weight: 10 },
] as const;

export const ASSIGNMENT_KINDS = ['Problem Set', 'Lab', 'Reading Response', 'Project Milestone', 'Worksheet', 'Essay'];
