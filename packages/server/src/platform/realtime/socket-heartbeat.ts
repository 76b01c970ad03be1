import { REALTIME_TIMING, WS_CLOSE_SIGNED_OUT, type ServerFrame } from '@studybuddy/shared/realtime';
import type { AppContext } from '../context.ts';
import { PING_SLOTS, type SocketState } from './socket-state.ts';

/** Sessions of open sockets are checked again this often (logout or expiry closes the socket). */
const SESSION_RECHECK_MS = 60_000;

/**
 * Pings the open sockets and rechecks their sessions; returns what stops it. Each socket is pinged once per
 * interval, but not all in the same moment: the interval is cut into slots and each socket has one, so a thousand
 * sockets never stall the event loop at once. The JSON ping is the only heartbeat: clients answer it with `pong`
 * (any frame shows a socket alive); one that did not answer the last is terminated. A WebSocket-level ping as well
 * doubled what an idle socket costs (two writes and two reads per interval; 10,000 idle sockets).
 */
export function startHeartbeat(ctx: AppContext, sockets: Set<SocketState>): () => void {
  const recheck = sessionRechecker(ctx, sockets);
  let tick = 0;
  const timer = setInterval(() => {
    const slot = tick++ % PING_SLOTS;
    const now = Date.now();
    const ping = JSON.stringify({ type: 'ping' } satisfies ServerFrame);
    const due: SocketState[] = [];
    for (const s of sockets) {
      if (s.slot !== slot) continue;
      if (!s.alive) {
        s.ws.terminate();
        continue;
      }
      s.alive = false;
      s.conn.send(ping);
      if (now - s.checkedAt > SESSION_RECHECK_MS) due.push(s);
    }
    if (due.length) recheck(due);
  }, REALTIME_TIMING.pingMs / PING_SLOTS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Closes the sockets whose session ended. Sessions are checked one after the other: a thousand sockets due at once
 * must not put a thousand queries in front of the messages (PGlite has one connection, a pool a few); sockets due
 * while a check runs wait for the next ping.
 */
function sessionRechecker(ctx: AppContext, sockets: Set<SocketState>): (due: SocketState[]) => void {
  let rechecking = false;
  const recheck = async (due: SocketState[]) => {
    rechecking = true;
    try {
      for (const s of due) {
        if (!sockets.has(s)) continue;
        s.checkedAt = Date.now();
        try {
          const user = await ctx.sessions.find(s.token);
          if (!user || user.id !== s.conn.userId) s.ws.close(WS_CLOSE_SIGNED_OUT, 'unauthenticated');
        } catch (err) {
          ctx.log.warn({ err }, 'realtime: session recheck failed');
        }
      }
    } finally {
      rechecking = false;
    }
  };
  return (due) => {
    if (!rechecking) void recheck(due);
  };
}
