import { z } from 'zod';
import { CONVERSATION_KINDS } from './chat.ts';
import { GROUP_KINDS } from './groups.ts';
import { COURSEWORK_TYPES } from './lms.ts';

/** What the search API answers (the route's response schema; the web's types are inferred from them). */

/** A passage with its matched words: each mark is a [start, end) range of UTF-16 code units of `text`. */
export const snippetSchema = z.object({
  text: z.string(),
  marks: z.array(z.tuple([z.number(), z.number()])),
  /** The passage starts after the beginning / ends before the end of the whole text. */
  cutStart: z.boolean(),
  cutEnd: z.boolean(),
});
export type Snippet = z.infer<typeof snippetSchema>;

/** A friend, or a student of the same college with a complete profile. */
export const personHitSchema = z.object({
  uid: z.string(),
  name: snippetSchema,
  profilePicture: z.string(),
  major: z.string(),
  year: z.string(),
  friend: z.boolean(),
});
export type PersonHit = z.infer<typeof personHitSchema>;

/** A group or hot group the student is a member of. */
export const groupHitSchema = z.object({
  id: z.string(),
  kind: z.enum(GROUP_KINDS),
  name: snippetSchema,
  description: z.string(),
  groupImage: z.string(),
});
export type GroupHit = z.infer<typeof groupHitSchema>;

/** A text message of a conversation the student belongs to. */
export const messageHitSchema = z.object({
  id: z.string(),
  /** The message's cursor: the conversation opens at it. */
  cursor: z.number(),
  conversation: z.object({ kind: z.enum(CONVERSATION_KINDS), id: z.string() }),
  /** The friend's name (a chat) or the group's name. */
  title: z.string(),
  /** The friend, in a chat. */
  peerId: z.string().nullable(),
  /** A group's kind (null for a chat). */
  groupKind: z.enum(GROUP_KINDS).nullable(),
  senderName: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  snippet: snippetSchema,
});
export type MessageHit = z.infer<typeof messageHitSchema>;

/** A coursework item of the student's imported courses. */
export const courseworkHitSchema = z.object({
  id: z.string(),
  type: z.enum(COURSEWORK_TYPES),
  name: snippetSchema,
  courseId: z.string(),
  courseName: z.string(),
  /** ISO 8601, or null without a due date. */
  dueDate: z.string().nullable(),
});
export type CourseworkHit = z.infer<typeof courseworkHitSchema>;

/** A page of one of the student's course documents. */
export const documentHitSchema = z.object({
  documentId: z.string(),
  name: z.string(),
  courseId: z.string(),
  courseName: z.string(),
  page: z.number(),
  /** The page's label (page, slide, sheet or section and its number). */
  label: z.string(),
  snippet: snippetSchema,
  /** The first matched word's [start, end) in the page's text (the document panel highlights it), if any. */
  match: z.tuple([z.number(), z.number()]).nullable(),
});
export type DocumentHit = z.infer<typeof documentHitSchema>;

export const searchResultsSchema = z.object({
  people: z.array(personHitSchema),
  groups: z.array(groupHitSchema),
  messages: z.array(messageHitSchema),
  coursework: z.array(courseworkHitSchema),
  documents: z.array(documentHitSchema),
});
export type SearchResults = z.infer<typeof searchResultsSchema>;
