import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_LIMITS } from '@studybuddy/shared/chat';
import { withWebmDuration } from './webm-duration.ts';

/** What the recorder writes, the first the browser offers: Opus in WebM (Chromium, Firefox) or in Ogg. */
const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm'];
/** Speech at 32 kbit/s Opus: about 4 KB a second (a 16 kHz WAV took 32 KB). */
const BITS_PER_SECOND = 32_000;

interface Session {
  stream: MediaStream;
  recorder: MediaRecorder;
  chunks: Blob[];
  startedAt: number;
  timer?: ReturnType<typeof setInterval>;
  send: boolean;
}

export const voiceRecordingType = () =>
  typeof MediaRecorder === 'undefined' ? undefined : TYPES.find((t) => MediaRecorder.isTypeSupported(t));

/** The recording as sent: a WebM gets its length written in (MediaRecorder leaves it out). */
async function finished(chunks: Blob[], type: string, ms: number): Promise<Blob> {
  const blob = new Blob(chunks, { type });
  if (!type.startsWith('audio/webm')) return blob;
  const bytes = withWebmDuration(new Uint8Array(await blob.arrayBuffer()), ms);
  return new Blob([bytes], { type });
}

/**
 * Voice messages (requirements §4): idle → recording (seconds counter) → stop and send, or cancel. Records the
 * microphone with MediaRecorder as Opus in WebM or Ogg, at most CHAT_LIMITS.voiceMaxSeconds.
 */
export function useVoiceRecorder(onRecorded: (voice: Blob, seconds: number) => void, onError: () => void) {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const session = useRef<Session | null>(null);
  const stopRef = useRef<(send: boolean) => void>(() => undefined);

  const stop = useCallback((send: boolean) => {
    const s = session.current;
    if (!s) return;
    session.current = null;
    clearInterval(s.timer);
    s.send = send;
    setRecording(false);
    setSeconds(0);
    // The last data and then 'stop' follow; the tracks end once the recorder has let go of them.
    if (s.recorder.state !== 'inactive') s.recorder.stop();
    else s.stream.getTracks().forEach((t) => t.stop());
  }, []);
  useEffect(() => {
    stopRef.current = stop;
  }, [stop]);

  const start = useCallback(async () => {
    if (session.current) return;
    const mimeType = voiceRecordingType();
    if (!mimeType) return onError();
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return onError();
    }
    try {
      const recorder = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: BITS_PER_SECOND });
      const startedAt = Date.now();
      const s: Session = { stream, recorder, chunks: [], startedAt, send: false, timer: undefined };
      recorder.ondataavailable = (e) => {
        if (e.data.size) s.chunks.push(e.data);
      };
      recorder.onstop = () => {
        s.stream.getTracks().forEach((t) => t.stop());
        if (!s.send) return;
        const ms = Date.now() - s.startedAt;
        if (!s.chunks.length) return onError();
        finished(s.chunks, recorder.mimeType || mimeType, ms).then(
          (blob) => onRecorded(blob, Math.round(ms / 1000)),
          onError,
        );
      };
      recorder.onerror = () => {
        stopRef.current(false);
        onError();
      };
      recorder.start(1000);
      s.timer = setInterval(() => {
        const elapsed = Math.floor((Date.now() - startedAt) / 1000);
        setSeconds(elapsed);
        if (elapsed >= CHAT_LIMITS.voiceMaxSeconds) stopRef.current(true);
      }, 250);
      session.current = s;
      setSeconds(0);
      setRecording(true);
    } catch {
      stream.getTracks().forEach((t) => t.stop());
      onError();
    }
  }, [onError, onRecorded]);

  // Leaving the chat while recording discards the recording.
  useEffect(() => () => stopRef.current(false), []);

  return { recording, seconds, start, stopAndSend: () => stop(true), cancel: () => stop(false) };
}
