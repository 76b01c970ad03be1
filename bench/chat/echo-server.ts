// The baseline of the chat benchmark: a bare `ws` server that forwards each frame to the sockets it names.
// Clients connect to ws://127.0.0.1:PORT/?id=<user>; a frame {"to":[ids],"data":"…"} is written to each of them.
//   node bench/chat/echo-server.ts <port>      (plain Node: no TypeScript syntax beyond what tsx strips)
import { WebSocketServer, type WebSocket } from 'ws';

const port = Number(process.argv[2] ?? 0);
const sockets = new Map<string, WebSocket>();
const wss = new WebSocketServer({ port, host: '127.0.0.1' });
wss.on('connection', (ws, req) => {
  const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '';
  sockets.set(id, ws);
  ws.on('message', (raw) => {
    const { to, data } = JSON.parse(raw.toString()) as { to: string[]; data: string };
    for (const target of to) sockets.get(target)?.send(data);
  });
  ws.on('close', () => sockets.delete(id));
});
wss.on('listening', () => process.stdout.write(`listening ${JSON.stringify(wss.address())}\n`));
