import { actionLink, type ActionMode } from '@studybuddy/shared/routes';
import type { MailMessage } from '../../platform/mail.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function linkMail(
  to: string,
  subject: string,
  intro: string,
  button: string,
  link: string,
  outro: string,
): MailMessage {
  return {
    to,
    subject,
    text: `Hello,\n\n${intro}\n\n${link}\n\n${outro}\n\n— StudyBuddy\n`,
    html:
      `<p>Hello,</p><p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(button)}</a></p>` +
      `<p>${escapeHtml(outro)}</p><p>— StudyBuddy</p>`,
  };
}

export function verificationMail(publicUrl: string, to: string, code: string): MailMessage {
  return linkMail(
    to,
    'Verify your email for StudyBuddy',
    'Follow this link to verify your email address:',
    'Verify my email',
    actionLink(publicUrl, 'verifyEmail' satisfies ActionMode, code),
    'The link works once and expires in 24 hours. If you did not sign up for StudyBuddy, ignore this email.',
  );
}

export function resetMail(publicUrl: string, to: string, code: string): MailMessage {
  return linkMail(
    to,
    'Reset your StudyBuddy password',
    'Follow this link to choose a new password for your StudyBuddy account:',
    'Reset my password',
    actionLink(publicUrl, 'resetPassword', code),
    'The link works once and expires in 1 hour. If you did not ask to reset your password, ignore this email.',
  );
}
