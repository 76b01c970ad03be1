import type { SQL } from 'drizzle-orm';
import type { ChatMessage, ConversationRef, SendMessageInput, SendMessageResult } from '@studybuddy/shared/chat';
import type { PushPayload } from '@studybuddy/shared/push-api';
import type { FreeTogether } from '@studybuddy/shared/schedule';
import type { Db } from '../db/connect.ts';
import type { SessionUser } from './session.ts';
import type { AccessRule } from './storage/access.ts';

/**
 * Extension points: features fill these as they start (each in its own plugin), and the feature that runs the
 * point reads them. One registry per app, on its context, so tests can build several apps side by side.
 */
export interface Registry {
  /** Where uploads of a named target go and what they may be (run by the files feature). */
  uploadTargets: Map<string, UploadTarget>;
  /** Who may read the stored files under a folder, by folder (run by GET /api/files/*). */
  fileAccessRules: Map<string, AccessRule>;
  /** Work to do before an account's rows disappear (run by account deletion). */
  accountCleanups: AccountCleanup[];
  /** Work to do when sessions end, in the transaction that deletes them (run by the accounts feature). */
  sessionCleanups: SessionCleanup[];
  /** Who besides the user sees the user's profile, so their screens hear when it changes. */
  profileAudiences: ProfileAudience[];
  /**
   * Who may read and write the conversations of a kind the chat feature does not own (groups), by kind: the
   * chat feature's conversation access asks it on every path (HTTP, socket, files, resync, the batch write).
   */
  conversationKinds: Map<string, ConversationKindRule>;
  /** Told of every batch of new messages once it is committed and published (push notices). */
  messageListeners: MessageListener[];
  /** Told of each message deleted for everyone once it is committed and published (push replaces its notice). */
  messageDeletionListeners: MessageDeletionListener[];
  /**
   * Told, once the change is committed, that a student's courses may have changed: their profile courses, their
   * imported coursework, their Canvas link (run by the profile and LMS features; groups: hot groups of a course
   * the student no longer holds).
   */
  courseListeners: CourseListener[];
  /** Further signals of the match ranking after the spec's score (the schedule's free time in common, issue 27). */
  matchTiebreaks: MatchTiebreak[];
  /** Events other features add to a student's calendar feed (study sessions), run by the calendar feature. */
  calendarSources: CalendarSource[];
  /**
   * Web Push notices other features send (the push feature's service puts itself here as it starts; until then, and
   * in an app without it, notices go nowhere). Read it when sending, not when a feature is built.
   */
  push: PushNotices;
  /**
   * The course files of a student's linked Canvas (documents' Canvas import). The LMS feature's service puts itself
   * here as it starts; until then, and in an app without it, no student is connected. Read it when calling.
   */
  canvasFiles: CanvasFiles;
  /**
   * The chat feature's one send path, for other features that post as a student (study sessions' cards). The chat
   * feature's service puts itself here as it starts; until then a send is refused. Read it when sending.
   */
  chatMessages: ChatMessages;
}

/** Sends a message as `senderId` to a conversation they may write to, as the socket's `send` op does. */
export interface ChatMessages {
  send(senderId: string, ref: ConversationRef, input: SendMessageInput): Promise<SendMessageResult>;
}

/** No chat: the registry's chat messages before the chat feature starts. */
export const noChatMessages: ChatMessages = {
  send: () => Promise.reject(new Error('the chat feature is not running')),
};

/** A Canvas file of a course (requirements §3 "LMS file as shown"), with the first module that links it. */
export interface CanvasCourseFile {
  id: string;
  displayName: string;
  filename: string;
  size: number;
  /** Canvas's download address: a capability URL (its verifier is the credential), kept server-side. */
  url: string;
  contentType: string;
  createdAt: string | null;
  moduleName: string | null;
}

/** Canvas files through the student's stored link; failures keep the LMS feature's kinds (`lmsFailureKind`). */
export interface CanvasFiles {
  /** Both the Canvas address and the token are stored and non-blank (requirements §5). */
  isConnected(userId: string): Promise<boolean>;
  /** The course's files and the files its modules link to. */
  list(userId: string, courseId: string): Promise<CanvasCourseFile[]>;
  /** One file of the course, downloaded (the token is never sent to the download hosts). */
  download(userId: string, courseId: string, fileId: string): Promise<{ bytes: Buffer; contentType: string }>;
}

/** No Canvas: the registry's Canvas files before the LMS feature starts. */
export const noCanvasFiles: CanvasFiles = {
  isConnected: async () => false,
  list: () => Promise.reject(new Error('Canvas is not connected')),
  download: () => Promise.reject(new Error('Canvas is not connected')),
};

/** The push feature's notices to students with no visible tab (issue 17); each returns at once. */
export interface PushNotices {
  /** A friend request from `from` to `toUserId`. */
  friendRequest(from: { id: string; name: string }, toUserId: string, requestId: string): void;
  /** `by` accepted the request `toUserId` sent. */
  requestAccepted(by: { id: string; name: string }, toUserId: string): void;
  /** A reminder under the messages setting, only while none of their tabs is visible. */
  reminder(userIds: readonly string[], payload: PushPayload): void;
  /** A study session's notice under the messages setting (and a group's mute), visible tab or not. */
  studySession(userIds: readonly string[], payload: PushPayload, groupId?: string): void;
  /** Resolves once every notice asked for so far has been sent or given up (tests wait on it). */
  idle(): Promise<void>;
}

/** Notices going nowhere: the registry's push before the push feature starts. */
export const noPushNotices: PushNotices = {
  friendRequest: () => {},
  requestAccepted: () => {},
  reminder: () => {},
  studySession: () => {},
  idle: () => Promise.resolve(),
};

/**
 * One event of a student's calendar feed. `uid` stays the same through changes; `sequence` goes up with each, and a
 * cancelled event stays in the feed (STATUS:CANCELLED) so calendar apps take it out.
 */
export interface CalendarEntry {
  uid: string;
  start: Date;
  end: Date;
  /** The IANA zone whose wall-clock time the event keeps (DTSTART;TZID=…). */
  timeZone: string;
  summary: string;
  description: string;
  location: string | null;
  url: string | null;
  sequence: number;
  cancelled: boolean;
  updatedAt: Date;
}

/** A student's events from one feature, from `now` on (recently cancelled ones too). */
export type CalendarSource = (userId: string, now: Date) => Promise<CalendarEntry[]>;

/**
 * A further ranking signal among candidates of equal score: `sqlFor` gives, for the viewer, SQL of a whole number
 * 0–999 for a row's user id (higher ranks first), or null when it has nothing to tell this viewer; `details` is what
 * the candidates' cards show.
 */
export interface MatchTiebreak {
  sqlFor(viewerId: string): Promise<((userIdColumn: SQL) => SQL) | null>;
  details(viewerId: string, candidateIds: string[]): Promise<Map<string, FreeTogether | null>>;
}

export interface ConversationKindRule {
  /** Throws 403 (with the kind's own message) unless the user may read and write the conversation. */
  authorize(userId: string, id: string): Promise<void>;
  /**
   * What a send needs beyond membership, which the batch write checks itself (hot groups: the course). Throws
   * 403 when the user may not write.
   */
  beforeWrite(userId: string, id: string): Promise<void>;
  /** Of conversations the user is a member of, those they may read now (a resync or a search filters with it). */
  readable(userId: string, ids: string[]): Promise<Set<string>>;
  /** What the conversation is called (a group's name); null when it does not exist. */
  title(id: string): Promise<string | null>;
  /** Pieces of the statements that must do it in one go; the arguments are SQL expressions of the caller. */
  sql: {
    /** True when the user is a member of the conversation. */
    isMember(id: SQL, userId: SQL): SQL<boolean>;
    /** The members' ids, as an array. */
    memberIds(id: SQL): SQL<string[] | null>;
    /** A subquery of the ids of the user's conversations of this kind. */
    idsOf(userId: SQL): SQL;
    /**
     * A data-modifying statement that moves each conversation's last message to the newest row of `latest`
     * (columns conversation_id, cursor, created_at, sender_id, preview) unless it already shows a newer one.
     */
    recordLast(latest: SQL): SQL;
  };
}

/** A batch of new messages and, for each, who besides the sender received it. */
export type MessageListener = (written: { message: ChatMessage; recipients: string[] }[]) => void;

/**
 * A message deleted for everyone (as it is now: no content), who besides the sender could read it, and whether it
 * was its conversation's newest message (the one a notice of the conversation shows).
 */
export type MessageDeletionListener = (deleted: {
  message: ChatMessage;
  recipients: string[];
  newest: boolean;
}) => void;

/**
 * An upload target: a feature names where its uploads go and what they may be, then the generic upload
 * endpoints (multipart up to 262144 bytes, tus above) accept files for it. Files are stored at
 * `<folder>/<key>.<ext>`, the key a hash of the content, the uploader and the name. Pair each folder with a file
 * access rule.
 */
export interface UploadTarget {
  /**
   * 'image': checked by its bytes and re-encoded (metadata stripped, size capped); 'file': stored as sent, with
   * the content type its first bytes show (never the one the client declared).
   */
  kind: 'image' | 'file';
  /** Largest accepted upload in bytes. */
  maxBytes: number;
  /**
   * A 'file' target that takes one kind of file only: the content types (judged by the bytes) it accepts, and the
   * text anything else is refused with (400).
   */
  accepts?: { types: readonly string[]; refusal: string };
  /** Longest side of a stored image (image targets; default 2048). */
  maxImagePx?: number;
  /** The storage folder for this user's upload; throw forbidden() or badRequest() to refuse it. */
  folder(user: SessionUser, params: Record<string, string>): string | Promise<string>;
}

/**
 * Work another feature must do before an account's rows disappear (e.g. deleting its stored files). Rows that
 * reference `users` are removed by the database itself (ON DELETE CASCADE, or SET NULL where a record must
 * survive — group messages then show 'Deleted student').
 */
export type AccountCleanup = (userId: string) => Promise<void>;

/**
 * Work another feature does when sessions end (log-out, password reset, disable, expiry): called with their ids
 * and the transaction that deletes them, so its rows go with the session (push: the browsers' subscriptions).
 */
export type SessionCleanup = (db: Db, sessionIds: string[]) => Promise<void>;

/** A student whose courses may have changed; it handles (and logs) its own failures. */
export type CourseListener = (userId: string) => Promise<void>;

/** The users besides `userId` who are shown `userId`'s profile (friends). */
export type ProfileAudience = (userId: string) => Promise<string[]>;

export function createRegistry(): Registry {
  return {
    uploadTargets: new Map(),
    fileAccessRules: new Map(),
    accountCleanups: [],
    sessionCleanups: [],
    profileAudiences: [],
    conversationKinds: new Map(),
    messageListeners: [],
    messageDeletionListeners: [],
    courseListeners: [],
    matchTiebreaks: [],
    calendarSources: [],
    push: noPushNotices,
    canvasFiles: noCanvasFiles,
    chatMessages: noChatMessages,
  };
}
