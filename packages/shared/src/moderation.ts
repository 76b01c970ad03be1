import { z } from 'zod';
import { CONVERSATION_KINDS, MESSAGE_TYPES } from './chat.ts';
import { MODERATION_MSG as MSG } from './messages/moderation.ts';

/**
 * Reports and moderation (issue 24, points 2 and 3): what a student sends to report someone or a message, and what
 * the admin area (`/api/admin/*`, admins only) reads and does.
 */

export const MODERATION_LIMITS = {
  /** Reports a student may send per day (QUOTA_REPORTS_PER_DAY overrides it on the server). */
  reportsPerDay: 20,
  reportDetailsMaxChars: 1000,
  /** Messages kept before a reported message (the reported one is kept too). */
  contextMessages: 5,
  reasonMaxChars: 500,
  /** Rows an admin list answers at most (newest first). */
  listMax: 200,
  searchMinChars: 2,
} as const;

export const REPORT_REASONS = ['harassment', 'spam', 'impersonation', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_TARGET_KINDS = ['student', 'message'] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

const id = z.string().min(1).max(300);

/** `POST /api/reports`: a student (their user id) or a message (its id), a reason and optional words. */
export const reportInputSchema = z.object({
  targetKind: z.enum(REPORT_TARGET_KINDS),
  targetId: id,
  reason: z.enum(REPORT_REASONS, { error: MSG.report.reasonRequired }),
  details: z
    .string()
    .trim()
    .max(MODERATION_LIMITS.reportDetailsMaxChars, MSG.report.detailsTooLong(MODERATION_LIMITS.reportDetailsMaxChars))
    .default(''),
});
export type ReportInput = z.input<typeof reportInputSchema>;

/** The reporter's confirmation (201 new, 200 when they had reported the same target already): never an outcome. */
export const reportReceivedSchema = z.object({ id: z.string(), received: z.literal(true) });
export type ReportReceived = z.infer<typeof reportReceivedSchema>;

/** A message as a report keeps it: copied when reported, so it outlives the message. */
export const snapshotMessageSchema = z.object({
  id: z.string(),
  senderId: z.string().nullable(),
  senderName: z.string(),
  type: z.enum(MESSAGE_TYPES),
  content: z.string(),
  createdAt: z.string(),
  /** The reported message itself (the others are its context). */
  reported: z.boolean(),
});
export type SnapshotMessage = z.infer<typeof snapshotMessageSchema>;

/** What the reporter saw, as it was: the reported student's card, the conversation and its messages. */
export const reportSnapshotSchema = z.object({
  student: z
    .object({
      id: z.string(),
      name: z.string(),
      profilePicture: z.string(),
      major: z.string(),
      year: z.string(),
    })
    .nullable(),
  conversation: z.object({ kind: z.enum(CONVERSATION_KINDS), id: z.string(), title: z.string().nullable() }).nullable(),
  messages: z.array(snapshotMessageSchema),
});
export type ReportSnapshot = z.infer<typeof reportSnapshotSchema>;

// ---- admin area ----

/** A student as the admin lists show them. */
export const adminPersonSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  disabled: z.boolean(),
});
export type AdminPerson = z.infer<typeof adminPersonSchema>;

export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const adminReportSchema = z.object({
  id: z.string(),
  status: z.enum(REPORT_STATUSES),
  reason: z.enum(REPORT_REASONS),
  details: z.string(),
  createdAt: z.string(),
  targetKind: z.enum(REPORT_TARGET_KINDS),
  targetId: z.string(),
  /** Null when the account was deleted since. */
  reporter: adminPersonSchema.nullable(),
  reported: adminPersonSchema.nullable(),
  snapshot: reportSnapshotSchema,
  /** For a message report: whether the message still exists (it may have been deleted since). */
  messageExists: z.boolean(),
  resolution: z.object({ at: z.string(), by: z.string(), note: z.string() }).nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

export const reportQueueQuerySchema = z.object({ status: z.enum(REPORT_STATUSES).default('open') });
export const reportQueueSchema = z.object({ reports: z.array(adminReportSchema) });
export type ReportQueue = z.infer<typeof reportQueueSchema>;

export const feedbackEntrySchema = z.object({
  id: z.string(),
  feedback: z.string(),
  rating: z.number(),
  createdAt: z.string(),
  /** The signed-in sender, or null (signed out, or the account was deleted). */
  from: adminPersonSchema.nullable(),
});
export const feedbackInboxSchema = z.object({ feedback: z.array(feedbackEntrySchema) });
export type FeedbackInbox = z.infer<typeof feedbackInboxSchema>;

export const studentSearchQuerySchema = z.object({
  q: z.string().trim().min(MODERATION_LIMITS.searchMinChars).max(200),
});
export const adminStudentSchema = adminPersonSchema.extend({
  college: z.string(),
  admin: z.boolean(),
  createdAt: z.string(),
});
export type AdminStudent = z.infer<typeof adminStudentSchema>;
export const studentSearchSchema = z.object({ students: z.array(adminStudentSchema) });
export type StudentSearch = z.infer<typeof studentSearchSchema>;

/** Every admin action says why (kept in the audit log) and may name the report it settles. */
export const adminActionInputSchema = z.object({
  reason: z
    .string({ error: MSG.admin.whyRequired })
    .trim()
    .min(1, MSG.admin.whyRequired)
    .max(MODERATION_LIMITS.reasonMaxChars),
  reportId: id.optional(),
});
export type AdminActionInput = z.infer<typeof adminActionInputSchema>;

export const AUDIT_ACTIONS = [
  'disableAccount',
  'enableAccount',
  'deleteMessage',
  'removeFromGroup',
  'resolveReport',
  'grantAdmin',
  'revokeAdmin',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_KINDS = ['student', 'message', 'group', 'report'] as const;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The admin's e-mail (kept as it was), or the operator command. */
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  targetKind: z.enum(AUDIT_TARGET_KINDS),
  targetId: z.string(),
  /** What the target was when acted on: an e-mail, a message's preview, a group's name. */
  targetLabel: z.string(),
  reason: z.string(),
  reportId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogSchema = z.object({ entries: z.array(auditEntrySchema) });
export type AuditLog = z.infer<typeof auditLogSchema>;

/** The answer of an action: the audit entry it wrote. */
export const adminActionResultSchema = z.object({ entry: auditEntrySchema });
export type AdminActionResult = z.infer<typeof adminActionResultSchema>;

export const adminMeSchema = z.object({ email: z.string() });
