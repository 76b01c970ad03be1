import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from './errors.ts';

/** A whole HTTP/1.1 answer written straight to the socket, for when there is no response object to use. */
function rawAnswer(status: number, code: string, message: string): string {
  const body = JSON.stringify(errorBody(code, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Answers (when nothing of the current answer was sent yet) and closes the connection. */
export function endConnection(socket: Socket, status: number, code: string, message: string, err?: Error) {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !current?.headersSent) socket.write(rawAnswer(status, code, message));
  socket.destroy(err);
}

/**
 * Answers a request Fastify will never see, then closes its connection once the answer is out. Unlike
 * endConnection, Node counts the request as answered, so closing raises no "aborted" error for it (whose stack,
 * with source maps on, costs more than the whole answer: a burst of refusals then held the event loop).
 */
export function answerAndClose(response: ServerResponse, status: number, code: string, message: string) {
  const body = JSON.stringify(errorBody(code, message));
  response.shouldKeepAlive = false;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
}
