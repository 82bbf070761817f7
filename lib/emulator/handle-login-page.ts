import { readBody, redirect, sendHtml, type Exchange } from './http-io.js';
import { errorPage, loggedOutPage, loginPage, PAGE_HEADERS } from './login-page-html.js';
import { safeRedirectUrl } from './redirect-guard.js';
import type { EmulatorContext } from './context.js';

const REDIRECT_RULE = 'redirect_url must be an http(s) URL on a loopback host or on the emulator\'s own host';

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * A browser says where a form post comes from: `Sec-Fetch-Site` and `Origin`. Refuse a post from
 * another site (any site could otherwise log the browser in as a member of its choice); tools
 * that send neither header (curl, tests) pass.
 */
function sameOrigin(x: Exchange): boolean {
  const site = x.req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  // The page's no-referrer policy makes Chrome send `Origin: null` on its own same-origin post.
  if (site === 'same-origin') return true;
  const origin = x.req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === (x.req.headers.host ?? '').toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, privacy-sensitive redirects) or garbage
  }
}

function fail(x: Exchange, status: number, message: string): void {
  sendHtml(x, status, errorPage(message), PAGE_HEADERS);
}

/**
 * Browser login page for web (cookie) tokens:
 * - `GET /_emulator/web/login?redirect_url=&game_id=`: the member picker.
 * - `POST /_emulator/web/login` (form `member_no`, `redirect_url`): sets the web token cookie
 *   (`Path=/; HttpOnly; SameSite=Lax`) and answers 302 to `redirect_url`; a post from another
 *   origin (`Origin`, `Sec-Fetch-Site: cross-site`) is refused with 403.
 * - `GET /_emulator/web/logout?redirect_url=`: revokes the cookie's token, clears the cookie, 302.
 */
export async function handleLoginPage(x: Exchange, ctx: EmulatorContext): Promise<void> {
  const { options } = ctx;
  const route = `${x.req.method ?? 'GET'} ${x.url.pathname}`;
  const text = await readBody(x.req);
  if (route === 'GET /_emulator/web/login') {
    const target = safeRedirectUrl(x.url.searchParams.get('redirect_url'), options);
    if (!target) return fail(x, 400, REDIRECT_RULE);
    const gameId = x.url.searchParams.get('game_id') ?? ctx.defaultGameId;
    if (!ctx.isGame(gameId)) return fail(x, 400, `game_id "${gameId}" is not a seeded game`);
    return sendHtml(x, 200, loginPage(ctx.seed.members, gameId, target), PAGE_HEADERS);
  }
  if (route === 'POST /_emulator/web/login') {
    if (!sameOrigin(x)) return fail(x, 403, 'the login form must be posted from the emulator\'s own page');
    const form = new URLSearchParams(text ?? '');
    const target = safeRedirectUrl(form.get('redirect_url'), options);
    if (!target) return fail(x, 400, REDIRECT_RULE);
    const memberNo = form.get('member_no') ?? '';
    if (!ctx.member(memberNo)) return fail(x, 400, 'member_no is not a seeded member');
    const token = ctx.users.issueWeb(memberNo, ctx.clock.now());
    return redirect(x, target, { 'set-cookie': `${options.webCookieName}=${token}; Path=/; HttpOnly; SameSite=Lax` });
  }
  if (route === 'GET /_emulator/web/logout') {
    const raw = x.url.searchParams.get('redirect_url');
    const target = raw === null ? null : safeRedirectUrl(raw, options);
    if (raw !== null && !target) return fail(x, 400, REDIRECT_RULE);
    const token = cookieValue(x.req.headers.cookie, options.webCookieName);
    if (token) ctx.users.revokeWeb(token);
    const clear = `${options.webCookieName}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
    return target ? redirect(x, target, { 'set-cookie': clear }) : sendHtml(x, 200, loggedOutPage(), { ...PAGE_HEADERS, 'set-cookie': clear });
  }
  fail(x, 404, `no login page route ${route}`);
}
