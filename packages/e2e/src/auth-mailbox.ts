import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { ActionMode } from '@studybuddy/shared/routes';

export interface ReceivedMail {
  to: string[];
  /** The raw message with quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface Mailbox {
  /** Pass as SMTP_URL to startServer. */
  smtpUrl: string;
  mails: ReceivedMail[];
  /** Waits for the `nth` (1-based, counted per address and mode) mail to `to` with a `mode` link and returns its link. */
  waitForLink(to: string, mode: ActionMode, nth?: number): Promise<string>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A real SMTP server in this process: the app sends its mail here over SMTP. */
export async function startMailbox(): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const linksTo = (to: string, mode: ActionMode) =>
    mails
      .filter((m) => m.to.includes(to.toLowerCase()))
      .map((m) => m.text.match(new RegExp(`https?://[^\\s"<>]+/verify\\?mode=${mode}&oobCode=[\\w-]+`))?.[0])
      .filter((l): l is string => !!l);

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForLink(to, mode, nth = 1) {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const link = linksTo(to, mode)[nth - 1];
        if (link) return link;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no ${mode} mail #${nth} to ${to}; received: ${mails.length}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
