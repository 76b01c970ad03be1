/**
 * The few Canvas web pages a student goes through to make an access token (no JavaScript, like Canvas without
 * its scripts): the dashboard with the Account tray, Account → Settings with Approved Integrations, the
 * "+ New Access Token" dialog and the "Access Token Details" that show the token once. A generated token works
 * against the API at once. The product's tutorial video is recorded from these pages (scripts/record-tutorial.mjs),
 * and "Open Canvas Settings" lands here in the demo.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const TOKEN_PAGE_PATHS = ['/', '/profile/settings', '/profile/settings/tokens'];

interface MadeToken {
  purpose: string;
  expires: string;
  /** Only the last characters, as Canvas lists them after the details are closed. */
  hint: string;
  createdAt: string;
}

const STUDENT = 'Ada Student';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:17px/1.5 "Lato","Helvetica Neue",Arial,sans-serif;color:#2d3b45;background:#fff}
a{color:#0374b5}
.nav{position:fixed;inset:0 auto 0 0;width:86px;background:#394b58;display:flex;flex-direction:column;align-items:center;padding-top:10px}
.nav a{color:#fff;text-decoration:none;font-size:13px;display:flex;flex-direction:column;align-items:center;padding:10px 0;width:100%}
.nav a.on{background:#fff;color:#0374b5}
.ico{width:30px;height:30px;border-radius:50%;border:2px solid currentColor;display:block;margin-bottom:4px}
.tray{position:fixed;left:86px;top:0;bottom:0;width:300px;background:#fff;box-shadow:2px 0 12px rgba(0,0,0,.25);padding:24px}
.tray h2{margin:0 0 16px;font-size:22px}.tray li{list-style:none;padding:8px 0;font-size:19px}.tray ul{padding:0}
.main{margin-left:86px;padding:20px 40px}
.crumbs{color:#6b7780;border-bottom:1px solid #c7cdd1;padding-bottom:12px;margin-bottom:20px}
h1{font-size:28px;font-weight:400;margin:0 0 16px}h2.sec{font-size:21px;font-weight:700;margin:30px 0 8px}
table{border-collapse:collapse;width:100%;max-width:760px}td,th{border-bottom:1px solid #e4e7e9;padding:8px;text-align:left}
.btn{display:inline-block;background:#f5f5f5;border:1px solid #c7cdd1;border-radius:4px;padding:8px 16px;color:#2d3b45;text-decoration:none;font:inherit;cursor:pointer}
.btn.primary{background:#0374b5;border-color:#0374b5;color:#fff}
.card{display:inline-block;width:250px;height:150px;margin:0 20px 20px 0;border:1px solid #c7cdd1;border-radius:4px;vertical-align:top}
.card div{height:90px;border-radius:4px 4px 0 0}.card p{margin:8px 12px;font-weight:700}
.overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:flex-start;justify-content:center;padding-top:60px}
.dialog{background:#fff;width:600px;border-radius:6px;box-shadow:0 8px 30px rgba(0,0,0,.35)}
.dialog header{padding:14px 20px;border-bottom:1px solid #c7cdd1;font-size:21px}
.dialog .body{padding:18px 20px}.dialog footer{padding:12px 20px;border-top:1px solid #c7cdd1;text-align:right;background:#f5f5f5}
label{display:block;font-weight:700;margin:10px 0 4px}input{font:inherit;padding:7px 10px;border:1px solid #c7cdd1;border-radius:4px;width:100%}
.token{font-family:monospace;font-size:17px;background:#f5f5f5;border:1px solid #c7cdd1;padding:10px;word-break:break-all}
.warn{background:#fff4e5;border-left:4px solid #fc5e13;padding:8px 12px;margin-bottom:12px}
.muted{color:#6b7780}`;

function nav(active: 'account' | 'dashboard'): string {
  const item = (href: string, label: string, on: boolean) =>
    `<a href="${href}" class="${on ? 'on' : ''}"><span class="ico" aria-hidden="true"></span>${label}</a>`;
  return `<nav class="nav" aria-label="Global navigation">${item('/?tray=account', 'Account', active === 'account')}${item(
    '/',
    'Dashboard',
    active === 'dashboard',
  )}${item('/', 'Courses', false)}${item('/', 'Calendar', false)}${item('/', 'Inbox', false)}${item('/', 'Help', false)}</nav>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function dashboard(tray: boolean): string {
  const colors = ['#2e7d32', '#0374b5', '#8e24aa', '#c62828', '#ef6c00', '#00838f'];
  const cards = colors
    .map((c, i) => `<div class="card"><div style="background:${c}"></div><p>Course ${i + 1}</p></div>`)
    .join('');
  const trayHtml = tray
    ? `<aside class="tray" aria-label="Account"><h2>${STUDENT}</h2><ul><li><a href="/">Profile</a></li><li><a id="settings-link" href="/profile/settings">Settings</a></li><li><a href="/">Notifications</a></li><li><a href="/">Files</a></li></ul></aside>`
    : '';
  return page(
    'Dashboard',
    `${nav(tray ? 'account' : 'dashboard')}<main class="main"><h1>Dashboard</h1>${cards}</main>${trayHtml}`,
  );
}

function settings(made: MadeToken[], dialog: string): string {
  const rows = made.length
    ? made
        .map(
          (t) =>
            `<tr><td>User-Generated</td><td>${esc(t.purpose)}</td><td>${esc(t.createdAt)}</td><td>${esc(t.expires)}</td><td>…${esc(t.hint)}</td></tr>`,
        )
        .join('')
    : '<tr><td colspan="5" class="muted">No approved integrations yet.</td></tr>';
  const body = `${nav('account')}<main class="main">
<div class="crumbs">${STUDENT} › Settings</div>
<h1>${STUDENT}'s Settings</h1>
<table><tr><th>Full Name:</th><td>${STUDENT}</td></tr><tr><th>Display Name:</th><td>Ada</td></tr>
<tr><th>Language:</th><td>System Default (English (US))</td></tr><tr><th>Time Zone:</th><td>Pacific Time (US &amp; Canada)</td></tr></table>
<h2 class="sec">Ways to Contact</h2><p class="muted">Email Addresses: ada.student@g.ucla.edu</p>
<h2 class="sec">Other Services</h2><p class="muted">Click any service to connect it to your account. No services connected.</p>
<h2 class="sec">Web Services</h2><p class="muted">Canvas can make your life a lot easier by tying itself in with the web tools you already use.</p>
<h2 class="sec" id="approved-integrations">Approved Integrations:</h2>
<p>These are the third-party applications you have authorized to access the Canvas site on your behalf.</p>
<table><tr><th>App</th><th>Purpose</th><th>Dates</th><th>Expires</th><th>Token</th></tr>${rows}</table>
<p><a class="btn" id="new-token" href="/profile/settings?new_token=1#approved-integrations">+ New Access Token</a></p>
<div style="height:200px"></div></main>${dialog}`;
  return page('User Settings', body);
}

const NEW_TOKEN_DIALOG = `<div class="overlay"><form class="dialog" role="dialog" aria-label="New Access Token" method="post" action="/profile/settings/tokens">
<header>New Access Token</header><div class="body">
<label for="purpose">Purpose</label><input id="purpose" name="purpose" autocomplete="off">
<label for="expires">Expiration date</label><input id="expires" name="expires" type="date">
<p class="muted">Leave the expiration empty for a token that does not expire.</p></div>
<footer><a class="btn" href="/profile/settings#approved-integrations">Cancel</a> <button class="btn primary" id="generate" type="submit">Generate Token</button></footer></form></div>`;

function detailsDialog(token: string, made: MadeToken): string {
  return `<div class="overlay"><div class="dialog" role="dialog" aria-label="Access Token Details">
<header>Access Token Details</header><div class="body">
<p class="warn">Make sure to copy your new access token now. You won't be able to see it again.</p>
<label>Token</label><div class="token" id="token-value">${esc(token)}</div>
<p><strong>Purpose:</strong> ${esc(made.purpose)}<br><strong>Expires:</strong> ${esc(made.expires)}</p></div>
<footer><a class="btn" href="/profile/settings#approved-integrations">Close</a></footer></div></div>`;
}

function newToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `7~${[...randomBytes(64)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let raw = '';
  for await (const chunk of req) {
    raw += String(chunk);
    if (raw.length > 10_000) break;
  }
  return new URLSearchParams(raw);
}

function html(res: ServerResponse, status: number, body: string): number {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
  return status;
}

/** The token pages of one emulator; `addToken` makes a generated token valid for the API. */
export function createTokenPages(addToken: (token: string) => void) {
  const made: MadeToken[] = [];
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    if (url.pathname === '/' && req.method === 'GET') return html(res, 200, dashboard(url.searchParams.has('tray')));
    if (url.pathname === '/profile/settings' && req.method === 'GET') {
      return html(res, 200, settings(made, url.searchParams.has('new_token') ? NEW_TOKEN_DIALOG : ''));
    }
    if (url.pathname === '/profile/settings/tokens' && req.method === 'POST') {
      const form = await formBody(req);
      const token = newToken();
      addToken(token);
      const entry: MadeToken = {
        purpose: (form.get('purpose') ?? '').trim().slice(0, 255) || 'No purpose',
        expires: (form.get('expires') ?? '').trim().slice(0, 10) || 'never',
        hint: token.slice(-4),
        createdAt: new Date().toISOString().slice(0, 10),
      };
      made.push(entry);
      return html(res, 200, settings(made, detailsDialog(token, entry)));
    }
    return html(res, 404, page('Page Not Found', '<p>Page Not Found</p>'));
  };
}
