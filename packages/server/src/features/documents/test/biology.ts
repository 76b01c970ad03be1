/** A three-page course handout whose facts live on known pages (for summaries and answers). */
export const BIOLOGY_PAGES: string[][] = [
  [
    'Introduction to Cell Biology.',
    'This course studies the structure and function of living cells. Cells are the basic unit of life, and every organism is made of one or more cells.',
    'We compare prokaryotic cells, which lack a nucleus, with eukaryotic cells, which keep their DNA inside a nucleus.',
    'Each week combines a lecture, a reading from the textbook and a short laboratory exercise on cells.',
  ],
  [
    'Mitochondria and energy.',
    'Mitochondria are the powerhouse of the cell. They produce ATP through cellular respiration, which uses oxygen and glucose.',
    'The inner membrane of the mitochondria is folded into cristae, which increases the surface available for making ATP.',
    'Cells with high energy needs, such as muscle cells, contain thousands of mitochondria.',
  ],
  [
    'Exams and grading.',
    'The midterm exam is on October 3 in Franz Hall and covers cell structure and mitochondria.',
    'The final exam counts for 40 percent of the course grade. Laboratory reports count for 30 percent and weekly quizzes for 30 percent.',
    'Late laboratory reports lose ten percent per day unless you have a documented emergency.',
  ],
];
