import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when a URL is configured, else an outbox folder of .eml files plus a log line; that line shows the
 * links (sign-in codes, reset codes) only when `logLinks` (not in production: logs outlive the codes' secrecy).
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  logLinks: boolean;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await builder.sendMail({ from: opts.from, ...message });
      await mkdir(outbox, { recursive: true });
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer);
      if (!opts.logLinks) {
        opts.log.info({ to: message.to, subject: message.subject, file }, `mail to ${message.to} saved in the outbox`);
        return;
      }
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      opts.log.info(
        { to: message.to, subject: message.subject, file, links },
        `mail to ${message.to}: ${links.join(' ')}`,
      );
    },
  };
}
