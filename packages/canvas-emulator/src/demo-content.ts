import { createHash } from 'node:crypto';
import type { CatalogCourse } from './catalog.ts';
import type { DataOptions } from './demo-data.ts';
import type { EmuData, EmuFile, EmuModule, EmuModuleItemType, EmuPage } from './model.ts';
import { makePdf } from './pdf.ts';

const uuid = (s: string) => createHash('sha1').update(s).digest('base64url').slice(0, 40);

interface Context {
  data: EmuData;
  ids: { module: number; item: number; file: number; page: number };
  options: DataOptions;
  cat: CatalogCourse;
  courseId: number;
  idx: number;
  termStart: string;
  topic: (n: number) => string;
}

/** A course's files (PDFs with text, notes, data) and its modules, whose items point at pages, files and work. */
export function addFilesAndModules({ data, ids, options, cat, courseId, idx, termStart, topic }: Context): void {
  const fileSpecs = [
    { name: `${cat.code} Syllabus.pdf`, type: 'application/pdf', pdf: true },
    { name: 'Lecture 01 Slides.pdf', type: 'application/pdf', pdf: true },
    { name: 'Week 1 Notes.txt', type: 'text/plain', pdf: false },
    { name: 'Problem Set Data.csv', type: 'text/csv', pdf: false },
  ];
  const nFiles = options.filesPerCourse ?? fileSpecs.length;
  const courseFiles: EmuFile[] = [];
  for (let j = 0; j < nFiles; j++) {
    const spec = fileSpecs[j % fileSpecs.length]!;
    const id = ++ids.file;
    const name = j < fileSpecs.length ? spec.name : spec.name.replace('.', ` ${j}.`);
    const lines = [
      `${cat.code} - ${cat.title}`,
      `Topics: ${cat.topics.join(', ')}.`,
      'Grading: Homework 30%, Projects 20%, Quizzes 15%, Exams 25%, Participation 10%.',
      'Late work loses 10% per day. Office hours: Tuesdays 2-4 pm.',
    ];
    const content = spec.pdf
      ? makePdf(name.replace('.pdf', ''), lines)
      : Buffer.from(spec.type === 'text/csv' ? 'x,y\n1,2.1\n2,3.9\n3,6.2\n' : lines.join('\n') + '\n', 'utf8');
    const f: EmuFile = {
      id,
      course_id: courseId,
      folder_id: 100 + idx,
      uuid: uuid(`file-${id}`),
      display_name: name,
      filename: name.replace(/\s+/g, '+'),
      content_type: spec.type,
      created_at: termStart,
      updated_at: termStart,
      locked: false,
      content,
    };
    courseFiles.push(f);
  }
  data.files.push(...courseFiles);

  const nModules = options.modulesPerCourse ?? 4;
  const perModule = options.itemsPerModule ?? 6;
  const cycle: EmuModuleItemType[] = ['SubHeader', 'Page', 'File', 'Assignment', 'Quiz', 'Discussion', 'ExternalUrl'];
  const cAssign = data.assignments.filter((a) => a.course_id === courseId && !a.quiz_id && !a.discussion_topic_id);
  const cQuiz = data.quizzes.filter((q) => q.course_id === courseId);
  const cTopic = data.topics.filter((t) => t.course_id === courseId && !t.is_announcement);
  for (let m = 0; m < nModules; m++) {
    const mod: EmuModule = {
      id: ++ids.module,
      course_id: courseId,
      name: `Week ${m + 1}: ${topic(m)}`,
      position: m + 1,
      unlock_at: null,
      items: [],
    };
    for (let k = 0; k < perModule; k++) {
      const type = cycle[k % cycle.length]!;
      const item = {
        id: ++ids.item,
        module_id: mod.id,
        position: k + 1,
        indent: type === 'SubHeader' ? 0 : 1,
        type,
        title: '',
      } as EmuModule['items'][number];
      const n = m * perModule + k;
      if (type === 'SubHeader') item.title = `Week ${m + 1} overview`;
      if (type === 'Page') {
        const page: EmuPage = {
          page_id: ++ids.page,
          course_id: courseId,
          url: `week-${m + 1}-notes-${k + 1}`,
          title: `Week ${m + 1} Notes: ${topic(m)}`,
          body: `<p>Key ideas of ${topic(m)}.</p>`,
          created_at: termStart,
          updated_at: termStart,
        };
        data.pages.push(page);
        item.title = page.title;
        item.page_url = page.url;
        item.completion_requirement = { type: 'must_view', completed: m === 0 };
      }
      if (type === 'File' && courseFiles.length) {
        const f = courseFiles[n % courseFiles.length]!;
        item.title = f.display_name;
        item.content_id = f.id;
      }
      if (type === 'Assignment' && cAssign.length) {
        const a = cAssign[n % cAssign.length]!;
        item.title = a.name;
        item.content_id = a.id;
        item.completion_requirement = { type: 'must_submit', completed: a.submission.submitted_at !== null };
      }
      if (type === 'Quiz' && cQuiz.length) {
        const q = cQuiz[n % cQuiz.length]!;
        item.title = q.title;
        item.content_id = q.id;
      }
      if (type === 'Discussion' && cTopic.length) {
        const t = cTopic[n % cTopic.length]!;
        item.title = t.title;
        item.content_id = t.id;
        item.completion_requirement = { type: 'must_contribute', completed: false };
      }
      if (type === 'ExternalUrl') {
        item.title = `Reading: ${topic(m + k)} (external)`;
        item.external_url = `https://en.wikipedia.org/wiki/${encodeURIComponent(topic(m + k).replace(/ /g, '_'))}`;
      }
      if (!item.title) item.title = `${type} ${k + 1}`;
      mod.items.push(item);
    }
    data.modules.push(mod);
  }
}
