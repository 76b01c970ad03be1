import { describe, expect, it } from 'vitest';
import { DEFAULT_UNIVERSITIES, type University } from '../../universities-config.ts';
import { canvasSettingsUrl, resolveCanvasUrl } from './canvas-url.ts';
import { mergeCourses } from './course-merge.ts';

describe('the Canvas address of a university', () => {
  it("comes from the e-mail domain's university in the universities setting", () => {
    expect(resolveCanvasUrl('ada@G.UCLA.edu', DEFAULT_UNIVERSITIES)).toBe('https://bruinlearn.ucla.edu');
    const emulated: University[] = [
      {
        key: 'CMU',
        name: 'CMU',
        domains: ['andrew.cmu.edu'],
        lms: { kind: 'canvas', url: 'http://127.0.0.1:4010/' },
        signUp: true,
      },
    ];
    expect(resolveCanvasUrl('bo@andrew.cmu.edu', emulated)).toBe('http://127.0.0.1:4010');
    expect(resolveCanvasUrl('cy@wisc.edu', DEFAULT_UNIVERSITIES)).toBe('https://canvas.wisc.edu');
    expect(canvasSettingsUrl('https://canvas.wisc.edu')).toBe('https://canvas.wisc.edu/profile/settings');
  });

  it('is null (Canvas URL not available) for an unknown domain or a university without a usable address', () => {
    const universities: University[] = [
      { key: 'UCLA', name: 'UCLA', domains: ['ucla.edu'], signUp: true },
      {
        key: 'CMU',
        name: 'CMU',
        domains: ['andrew.cmu.edu'],
        lms: { kind: 'canvas', url: 'ftp://canvas.cmu.edu' },
        signUp: true,
      },
    ];
    expect(resolveCanvasUrl('ada@ucla.edu', universities)).toBeNull();
    expect(resolveCanvasUrl('bo@andrew.cmu.edu', universities)).toBeNull();
    expect(resolveCanvasUrl('x@gmail.com', DEFAULT_UNIVERSITIES)).toBeNull();
    expect(resolveCanvasUrl('no-at-sign', DEFAULT_UNIVERSITIES)).toBeNull();
  });
});

describe('merging imported courses', () => {
  const canvas = Array.from({ length: 10 }, (_, i) => ({ id: String(1100 + i), name: `Course ${i}` }));

  it('keeps the profile courses first, adopts Canvas ids for the same course, and cuts to 10', () => {
    const merged = mergeCourses(
      [
        { id: 'manual-1', name: 'Chess Club' },
        { id: 'manual-2', name: '  course   3 ' },
      ],
      canvas,
    );
    expect(merged).toHaveLength(10);
    expect(merged[0]).toEqual({ id: 'manual-1', name: 'Chess Club' });
    expect(merged[1]).toEqual({ id: '1103', name: 'Course 3' });
    expect(merged.slice(2).map((c) => c.id)).toEqual(['1100', '1101', '1102', '1104', '1105', '1106', '1107', '1108']);
  });

  it('replaces a course imported before (same id) in place', () => {
    const merged = mergeCourses([{ id: '1100', name: 'Old name' }], canvas.slice(0, 2));
    expect(merged).toEqual([
      { id: '1100', name: 'Course 0' },
      { id: '1101', name: 'Course 1' },
    ]);
  });
});
