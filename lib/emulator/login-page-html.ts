import { escapeHtml as e } from './http-io.js';
import type { ValidMember } from './seed.js';

/** Security headers of the emulator's HTML pages. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}'
  + 'li{margin:.5rem 0;list-style:none}button{padding:.4rem .8rem;cursor:pointer}code{background:#eee;padding:0 .2rem}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(title)}</title>`
    + `<style>${STYLE}</style></head><body>${body}</body></html>`;
}

function describe(m: ValidMember, gameId: string): string {
  const guid = m.guids[gameId];
  const parts = [`member_no ${m.member_no}`, guid === undefined ? 'no guid' : `guid ${guid}`];
  if (!m.device_registered) parts.push('device not registered');
  return parts.join(', ');
}

/** The member picker: one form per seeded member, posting to `/_emulator/web/login`. */
export function loginPage(members: readonly ValidMember[], gameId: string, redirectUrl: string): string {
  const items = members.map((m) => {
    const label = m.nickname ?? m.member_no;
    return '<li><form method="post" action="/_emulator/web/login">'
      + `<input type="hidden" name="member_no" value="${e(m.member_no)}">`
      + `<input type="hidden" name="redirect_url" value="${e(redirectUrl)}">`
      + `<button type="submit" data-member-no="${e(m.member_no)}">Log in as ${e(label)}</button> `
      + `<small>(${e(describe(m, gameId))})</small></form></li>`;
  }).join('');
  return page('Platform emulator login', '<h1>Platform emulator: choose a member</h1>'
    + `<p>Game <code>${e(gameId)}</code>. After login you return to <code>${e(redirectUrl)}</code>.</p>`
    + `<ul>${items}</ul><p><small>Development emulator: not the real platform.</small></p>`);
}

/** A short error page (400 and friends). */
export function errorPage(message: string): string {
  return page('Platform emulator login', `<h1>Cannot continue</h1><p>${e(message)}</p>`);
}

/** Shown after logout when no redirect_url was given. */
export function loggedOutPage(): string {
  return page('Platform emulator login', '<h1>Logged out</h1>');
}
