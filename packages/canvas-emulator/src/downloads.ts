/** File downloads: /files/:id/download?verifier=… answers 302 to the "files domain", which serves the bytes. */
import type { ServerResponse } from 'node:http';
import type { EmuData } from './model.ts';
import { send } from './responses.ts';

export function handleDownload(res: ServerResponse, url: URL, data: EmuData): number {
  const m = /^\/files\/(\d+)\/download$/.exec(url.pathname);
  const c = /^\/__content\/files\/(\d+)\/([\w-]+)\/[^/]+$/.exec(url.pathname);
  const file = data.files.find((f) => f.id === Number(m?.[1] ?? c?.[1]));
  const verifier = m ? url.searchParams.get('verifier') : c?.[2];
  if (!file || file.locked || verifier !== file.uuid) {
    send(res, 404, { errors: [{ message: 'The specified resource does not exist.' }] }, {}, false);
    return 404;
  }
  if (m) {
    // Canvas answers 302 to its files domain, which serves the bytes (the verifier is the credential).
    res.writeHead(302, { Location: `/__content/files/${file.id}/${file.uuid}/${encodeURIComponent(file.filename)}` });
    res.end();
    return 302;
  }
  res.writeHead(200, {
    'Content-Type': file.content_type,
    'Content-Length': String(file.content.length),
    'Content-Disposition': `attachment; filename="${file.filename}"`,
  });
  res.end(file.content);
  return 200;
}
