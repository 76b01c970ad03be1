// Records the Canvas connect tutorial: Chromium goes through the Canvas emulator's token pages (Account → Settings →
// Approved Integrations → + New Access Token → Generate Token → the token), and the screen becomes a silent WebM
// (VP9) with WebVTT captions (MSG.lms.tutorialCaptions, timed to what is on screen) and a transcript.
//
//   node --import tsx scripts/record-tutorial.mjs
//
// Needs only Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and the installed packages: frames come from the
// DevTools screencast, Chromium's own WebCodecs VP9 encoder compresses them, and webm-muxer writes the file.
// Writes packages/web/public/tutorial/canvas-token.{webm,vtt} and canvas-token-transcript.txt.
// The functions given to page.evaluate run in the browser:
/* global document, window, VideoEncoder, VideoFrame, OffscreenCanvas, createImageBitmap, Blob, atob, btoa */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ArrayBufferTarget, Muxer } from 'webm-muxer';
import { startEmulator } from '@studybuddy/canvas-emulator/server';
import { MSG } from '@studybuddy/shared/messages';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'packages/web/public/tutorial');
const WIDTH = 960;
const HEIGHT = 600;
const FPS = 10;
/** A keyframe every few seconds keeps seeking quick without costing much. */
const KEYFRAME_EVERY = 10 * FPS;
const BITRATE = 70_000;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A drawn pointer (the screencast does not show the mouse), moved smoothly to an element before each click. */
async function showPointer(page, at) {
  await page.evaluate(({ x, y }) => {
    const p = document.createElement('div');
    p.id = 'tutorial-pointer';
    p.innerHTML =
      '<svg width="28" height="28" viewBox="0 0 24 24"><path d="M4 2l16 10-7 1.5L9.5 21z" fill="#fff" stroke="#111" stroke-width="1.6" stroke-linejoin="round"/></svg>';
    Object.assign(p.style, {
      position: 'fixed',
      left: `${x}px`,
      top: `${y}px`,
      zIndex: '99999',
      pointerEvents: 'none',
      transition: 'left 700ms ease-in-out, top 700ms ease-in-out',
      filter: 'drop-shadow(0 1px 2px rgba(0,0,0,.4))',
    });
    document.body.append(p);
  }, at);
}

function createDriver(page) {
  let pointer = { x: WIDTH / 2, y: HEIGHT / 2 };
  return {
    async arrived() {
      await page.waitForLoadState('load');
      await showPointer(page, pointer);
      await sleep(400);
    },
    async pointTo(locator) {
      await locator.scrollIntoViewIfNeeded();
      const box = await locator.boundingBox();
      if (!box) throw new Error('nothing to point at');
      pointer = { x: Math.round(box.x + Math.min(box.width / 2, 60)), y: Math.round(box.y + box.height / 2) };
      await page.evaluate(({ x, y }) => {
        const p = document.getElementById('tutorial-pointer');
        if (p) Object.assign(p.style, { left: `${x}px`, top: `${y}px` });
      }, pointer);
      await sleep(900);
    },
    async click(locator) {
      await this.pointTo(locator);
      await page.evaluate(({ x, y }) => {
        const ring = document.createElement('div');
        Object.assign(ring.style, {
          position: 'fixed',
          left: `${x - 18}px`,
          top: `${y - 18}px`,
          width: '36px',
          height: '36px',
          borderRadius: '50%',
          border: '3px solid #fc5e13',
          zIndex: '99998',
          pointerEvents: 'none',
        });
        document.body.append(ring);
      }, pointer);
      await sleep(350);
      await locator.click();
    },
  };
}

/**
 * Goes through the token pages; returns when each caption (MSG.lms.tutorialCaptions, in order) starts, in ms
 * since `t0`.
 */
async function drive(page, emuUrl, t0) {
  const d = createDriver(page);
  const starts = [];
  const caption = () => starts.push(Date.now() - t0);

  await page.goto(`${emuUrl}/`);
  await d.arrived();
  await sleep(600);
  caption(); // Open Account in the left menu.
  await d.click(page.getByRole('link', { name: 'Account' }));
  await d.arrived();
  await sleep(500);
  caption(); // Choose Settings.
  await d.click(page.locator('#settings-link'));
  await d.arrived();
  await sleep(1000);

  caption(); // Scroll down to Approved Integrations.
  await sleep(800);
  await page.evaluate(() =>
    document.getElementById('approved-integrations').scrollIntoView({ behavior: 'instant', block: 'start' }),
  );
  await sleep(1400);
  caption(); // Click + New Access Token.
  await d.click(page.locator('#new-token'));
  await d.arrived();
  await sleep(600);

  caption(); // Enter StudyBuddy as the purpose.
  await d.click(page.getByLabel('Purpose'));
  await page.getByLabel('Purpose').pressSequentially('StudyBuddy', { delay: 140 });
  await sleep(700);
  caption(); // Leave the expiry empty, or pick a date far ahead.
  await d.pointTo(page.getByLabel('Expiration date'));
  await sleep(1600);
  caption(); // Click Generate Token.
  await d.click(page.locator('#generate'));
  await d.arrived();
  await sleep(600);

  caption(); // Copy the token: Canvas shows it only once.
  await d.pointTo(page.locator('#token-value'));
  await page.locator('#token-value').selectText();
  await sleep(2600);
  caption(); // Paste it in StudyBuddy in the next step.
  await sleep(2600);
  if (starts.length !== MSG.lms.tutorialCaptions.length) throw new Error('one caption moment per caption');
  return starts;
}

/** Screencast frames as they arrive: { at: ms since t0, jpeg: base64 }. */
async function startScreencast(page, t0) {
  const cdp = await page.context().newCDPSession(page);
  const frames = [];
  cdp.on('Page.screencastFrame', (f) => {
    frames.push({ at: Date.now() - t0, jpeg: f.data });
    void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
  });
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 92, maxWidth: WIDTH, maxHeight: HEIGHT });
  return {
    frames,
    stop: () => cdp.send('Page.stopScreencast'),
  };
}

/** Encodes the frames at FPS in Chromium's VP9 encoder (a page on the emulator's origin: a secure context). */
async function encode(page, frames, durationMs) {
  await page.evaluate(
    async ({ width, height, bitrate }) => {
      const config = { codec: 'vp09.00.10.08', width, height, bitrate, framerate: 10, latencyMode: 'quality' };
      const support = await VideoEncoder.isConfigSupported(config);
      if (!support.supported) throw new Error('this Chromium has no VP9 encoder');
      const chunks = [];
      const encoder = new VideoEncoder({
        output: (chunk) => {
          const bytes = new Uint8Array(chunk.byteLength);
          chunk.copyTo(bytes);
          let binary = '';
          for (const b of bytes) binary += String.fromCharCode(b);
          chunks.push({ type: chunk.type, timestamp: chunk.timestamp, data: btoa(binary) });
        },
        error: (e) => {
          throw e;
        },
      });
      encoder.configure(config);
      const canvas = new OffscreenCanvas(width, height);
      const g = canvas.getContext('2d');
      g.fillStyle = '#fff';
      g.fillRect(0, 0, width, height);
      window.tutorial = { encoder, chunks, canvas, g, n: 0 };
    },
    { width: WIDTH, height: HEIGHT, bitrate: BITRATE },
  );
  const ticks = Math.ceil((durationMs / 1000) * FPS);
  let next = 0;
  for (let i = 0; i < frames.length; i++) {
    // Every tick up to the next frame's arrival shows this frame.
    const until = i + 1 < frames.length ? Math.min(ticks, Math.floor((frames[i + 1].at / 1000) * FPS)) : ticks;
    if (until <= next && i + 1 < frames.length) continue;
    await page.evaluate(
      async ({ jpeg, from, to, fps, keyEvery }) => {
        const t = window.tutorial;
        const bytes = Uint8Array.from(atob(jpeg), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
        t.g.drawImage(bitmap, 0, 0, t.canvas.width, t.canvas.height);
        bitmap.close();
        for (let k = from; k < to; k++) {
          const frame = new VideoFrame(t.canvas, { timestamp: Math.round((k * 1e6) / fps), duration: 1e6 / fps });
          t.encoder.encode(frame, { keyFrame: k % keyEvery === 0 });
          frame.close();
          if (t.encoder.encodeQueueSize > 8) await new Promise((r) => setTimeout(r, 5));
        }
      },
      { jpeg: frames[i].jpeg, from: next, to: Math.max(next, until), fps: FPS, keyEvery: KEYFRAME_EVERY },
    );
    next = Math.max(next, until);
  }
  return page.evaluate(async () => {
    await window.tutorial.encoder.flush();
    return window.tutorial.chunks;
  });
}

function mux(chunks) {
  const muxer = new Muxer({
    target: new ArrayBufferTarget(),
    video: { codec: 'V_VP9', width: WIDTH, height: HEIGHT, frameRate: FPS },
    firstTimestampBehavior: 'offset',
  });
  for (const c of chunks) muxer.addVideoChunkRaw(Buffer.from(c.data, 'base64'), c.type, c.timestamp);
  muxer.finalize();
  return Buffer.from(muxer.target.buffer);
}

const vttTime = (ms) => {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

function captions(starts, durationMs) {
  const cues = MSG.lms.tutorialCaptions.map((text, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : durationMs;
    return `${i + 1}\n${vttTime(starts[i])} --> ${vttTime(end)}\n${text}`;
  });
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

async function main() {
  const emu = await startEmulator({ throttle: false });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${emu.url}/`);
    const t0 = Date.now();
    const cast = await startScreencast(page, t0);
    const starts = await drive(page, emu.url, t0);
    const durationMs = Date.now() - t0;
    await cast.stop();
    if (!cast.frames.length) throw new Error('the screencast sent no frames');

    const encoderPage = await context.newPage();
    await encoderPage.goto(`${emu.url}/`);
    const chunks = await encode(encoderPage, cast.frames, durationMs);
    const webm = mux(chunks);
    if (process.env.DEBUG_TUTORIAL) {
      const size = (c) => Math.round((c.data.length * 3) / 4 / 1024);
      console.log(chunks.map((c) => `${c.type === 'key' ? 'K' : ''}${size(c)}`).join(' '));
    }

    await mkdir(OUT, { recursive: true });
    await writeFile(path.join(OUT, 'canvas-token.webm'), webm);
    await writeFile(path.join(OUT, 'canvas-token.vtt'), captions(starts, durationMs));
    await writeFile(path.join(OUT, 'canvas-token-transcript.txt'), `${MSG.lms.tutorialTranscript.join('\n\n')}\n`);
    console.log(
      `canvas-token.webm: ${(webm.length / 1024).toFixed(0)} KB, ${(durationMs / 1000).toFixed(1)} s, ` +
        `${cast.frames.length} screen frames, ${chunks.length} video frames; captions at ${starts.join(', ')} ms`,
    );
  } finally {
    await browser.close();
    await emu.close();
  }
}

await main();
