import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createMailer } from './mail.ts';

const log = Fastify({ logger: false }).log;

describe('mailer', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sb-mail-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('delivers over real SMTP when SMTP_URL is set', async () => {
    const received: { to: string[]; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'sb@test.local',
        dataDir,
        log,
        logLinks: true,
      });
      await mailer.send({ to: 'ada@g.ucla.edu', subject: 'Hello', text: 'Open http://localhost/verify?x=1' });
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toEqual(['ada@g.ucla.edu']);
      expect(received[0]!.raw).toContain('Subject: Hello');
      expect(received[0]!.raw).toContain('http://localhost/verify?x=1');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('writes an .eml file to the outbox when no SMTP_URL is set', async () => {
    const mailer = createMailer({ from: 'sb@test.local', dataDir, log, logLinks: true });
    await mailer.send({
      to: 'bo@andrew.cmu.edu',
      subject: 'Reset',
      text: 'Link: http://localhost/verify?mode=resetPassword',
    });
    const files = await readdir(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/bo@andrew\.cmu\.edu\.eml$/);
    const raw = await readFile(path.join(dataDir, 'outbox', files[0]!), 'utf8');
    expect(raw).toContain('To: bo@andrew.cmu.edu');
    expect(raw).toContain('http://localhost/verify?mode=resetPassword');
  });
});
