export type UniversityKey = 'UCLA' | 'CMU' | 'WISC';

export interface University {
  key: UniversityKey;
  name: string;
  domains: readonly string[];
  canvasUrl: string;
}

export const UNIVERSITIES: readonly University[] = [
  {
    key: 'UCLA',
    name: 'UCLA',
    domains: ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'],
    canvasUrl: 'https://bruinlearn.ucla.edu',
  },
  {
    key: 'CMU',
    name: 'Carnegie Mellon',
    domains: ['andrew.cmu.edu'],
    canvasUrl: 'https://canvas.cmu.edu',
  },
  {
    key: 'WISC',
    name: 'University of Wisconsin-Madison',
    domains: ['wisc.edu'],
    canvasUrl: 'https://canvas.wisc.edu',
  },
];

/** The university whose listed domain equals the e-mail's domain (case-insensitive), if any. */
export function universityForEmail(email: string): University | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return UNIVERSITIES.find((u) => u.domains.includes(domain));
}
