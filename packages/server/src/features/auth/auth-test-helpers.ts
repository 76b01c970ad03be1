// Test support for the accounts feature: captured mail, links out of it, cookies out of responses.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ActionMode } from '@studybuddy/shared/routes';
import type { MailMessage, Mailer } from '../../platform/mail.ts';
import { SESSION_COOKIE } from './session.ts';

export interface MailCapture extends Mailer {
  messages: MailMessage[];
  /** Make the next sends fail (as an SMTP server that is down). */
  failing: boolean;
  /** The oobCode of the newest mail to `to` with a link of this mode. */
  lastCode(to: string, mode: ActionMode): string;
}

export function captureMail(): MailCapture {
  const capture: MailCapture = {
    messages: [],
    failing: false,
    async send(message) {
      if (capture.failing) throw new Error('SMTP server unavailable');
      capture.messages.push(message);
    },
    lastCode(to, mode) {
      const mail = capture.messages.filter((m) => m.to === to && m.text.includes(`mode=${mode}`)).at(-1);
      if (!mail) throw new Error(`no ${mode} mail to ${to}`);
      const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
      return link.searchParams.get('oobCode')!;
    },
  };
  return capture;
}

/** The `cookie` header value that carries the session set by a response, or undefined. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const c = res.cookies.find((x) => x.name === SESSION_COOKIE && x.value);
  return c ? `${SESSION_COOKIE}=${c.value}` : undefined;
}

export const post = (app: FastifyInstance, url: string, payload: unknown, cookie?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });

/** Signs up and verifies through the API like a person would; returns nothing but a ready account. */
export async function signUpVerified(
  app: FastifyInstance,
  mail: MailCapture,
  email: string,
  password: string,
): Promise<void> {
  const res = await post(app, '/api/auth/signup', { email, password });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.body}`);
  const verify = await post(app, '/api/auth/verify-email', { oobCode: mail.lastCode(email, 'verifyEmail') });
  if (verify.statusCode !== 200) throw new Error(`verification failed: ${verify.body}`);
}

export async function logIn(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await post(app, '/api/auth/login', { email, password });
  const cookie = sessionCookie(res);
  if (res.statusCode !== 200 || !cookie) throw new Error(`log-in failed: ${res.body}`);
  return cookie;
}
