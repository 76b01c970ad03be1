import { describe, expect, it } from 'vitest';
import { compareCandidates, courseKey, matchScore, type RankKey } from './match-score.ts';

const me = { major: 'Computer Science', year: 'Junior', courses: ['CS 31', 'Math 32A', 'Physics 1A'] };

describe('matchScore', () => {
  it('gives 10 per shared course, 5 for the same major and 3 for the same year', () => {
    expect(matchScore(me, { major: 'Computer Science', year: 'Junior', courses: ['CS 31', 'Math 32A'] })).toEqual({
      score: 28,
      sharedCourses: ['CS 31', 'Math 32A'],
    });
    expect(matchScore(me, { major: 'History', year: 'Junior', courses: ['CS 31'] }).score).toBe(13);
    expect(matchScore(me, { major: 'Computer Science', year: 'Senior', courses: [] }).score).toBe(5);
    expect(matchScore(me, { major: 'History', year: 'Senior', courses: ['Art 10'] })).toEqual({
      score: 0,
      sharedCourses: [],
    });
  });

  it('matches course names ignoring case and surrounding or repeated spaces, counting each course once', () => {
    const other = { major: 'x', year: 'Senior', courses: ['  cs   31 ', 'CS 31', 'physics 1a'] };
    expect(matchScore(me, other)).toEqual({ score: 20, sharedCourses: ['CS 31', 'Physics 1A'] });
    expect(courseKey('  Intro   to\tCS ')).toBe('intro to cs');
  });

  it('compares majors without case or surrounding spaces, and never matches empty values', () => {
    expect(matchScore(me, { major: ' computer science ', year: '', courses: [] }).score).toBe(5);
    const blank = { major: '', year: '', courses: [] };
    expect(matchScore(blank, blank).score).toBe(0);
  });

  it('is symmetric in score', () => {
    const other = { major: 'Math', year: 'Junior', courses: ['math 32a', 'Chem 14A'] };
    expect(matchScore(me, other).score).toBe(matchScore(other, me).score);
  });
});

describe('compareCandidates', () => {
  it('sorts by score descending, then newest first, then id descending', () => {
    const rows: RankKey[] = [
      { score: 10, createdAt: '2024-01-01T00:00:00.000000Z', id: 'a' },
      { score: 18, createdAt: '2023-01-01T00:00:00.000000Z', id: 'b' },
      { score: 10, createdAt: '2024-06-01T00:00:00.000000Z', id: 'c' },
      { score: 10, createdAt: '2024-06-01T00:00:00.000000Z', id: 'd' },
      { score: 0, createdAt: '2025-01-01T00:00:00.000000Z', id: 'e' },
    ];
    expect([...rows].sort(compareCandidates).map((r) => r.id)).toEqual(['b', 'd', 'c', 'a', 'e']);
  });
});
