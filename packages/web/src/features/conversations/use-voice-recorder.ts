import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_LIMITS } from '@studybuddy/shared/chat';
import { encodeWav, resample } from './wav.ts';

const TARGET_RATE = 16_000;

interface Session {
  stream: MediaStream;
  context: AudioContext;
  processor: ScriptProcessorNode;
  chunks: Float32Array[];
  startedAt: number;
  timer: ReturnType<typeof setInterval>;
}

/**
 * Voice messages (requirements §4): idle → recording (seconds counter) → stop and send, or cancel. Records the
 * microphone with the Web Audio API and encodes a 16 kHz mono WAV in the browser.
 */
export function useVoiceRecorder(onRecorded: (wav: Blob, seconds: number) => void, onError: () => void) {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const session = useRef<Session | null>(null);
  const stopRef = useRef<(send: boolean) => void>(() => undefined);

  const stop = useCallback(
    (send: boolean) => {
      const s = session.current;
      if (!s) return;
      session.current = null;
      clearInterval(s.timer);
      s.processor.disconnect();
      s.stream.getTracks().forEach((t) => t.stop());
      const rate = s.context.sampleRate;
      void s.context.close();
      setRecording(false);
      setSeconds(0);
      if (!send) return;
      const total = s.chunks.reduce((n, c) => n + c.length, 0);
      const all = new Float32Array(total);
      let offset = 0;
      for (const c of s.chunks) {
        all.set(c, offset);
        offset += c.length;
      }
      if (!total) return onError();
      onRecorded(encodeWav(resample(all, rate, TARGET_RATE), TARGET_RATE), Math.round(total / rate));
    },
    [onError, onRecorded],
  );
  useEffect(() => {
    stopRef.current = stop;
  }, [stop]);

  const start = useCallback(async () => {
    if (session.current) return;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return onError();
    }
    try {
      const context = new AudioContext();
      const source = context.createMediaStreamSource(stream);
      const processor = context.createScriptProcessor(4096, 1, 1);
      const mute = context.createGain();
      mute.gain.value = 0;
      const chunks: Float32Array[] = [];
      processor.onaudioprocess = (e) => chunks.push(new Float32Array(e.inputBuffer.getChannelData(0)));
      source.connect(processor);
      processor.connect(mute);
      mute.connect(context.destination);
      const startedAt = Date.now();
      const timer = setInterval(() => {
        const elapsed = Math.floor((Date.now() - startedAt) / 1000);
        setSeconds(elapsed);
        if (elapsed >= CHAT_LIMITS.voiceMaxSeconds) stopRef.current(true);
      }, 250);
      session.current = { stream, context, processor, chunks, startedAt, timer };
      setSeconds(0);
      setRecording(true);
    } catch {
      stream.getTracks().forEach((t) => t.stop());
      onError();
    }
  }, [onError]);

  // Leaving the chat while recording discards the recording.
  useEffect(() => () => stopRef.current(false), []);

  return { recording, seconds, start, stopAndSend: () => stop(true), cancel: () => stop(false) };
}
