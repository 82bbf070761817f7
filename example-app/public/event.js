// The event page: asks the app who is logged in (the browser sends the web
// token cookie), and reacts to the problem+json `action` of a refusal.
// No framework, no build step; every text goes through textContent.
'use strict';

const MESSAGES = {
  login: 'You are not logged in.',
  relogin: 'Your login has expired. Please log in again.',
  register_device: 'This device is not registered for your account. Register it in the platform app, then try again.',
  retry_later: 'The login service is busy right now.',
  contact_support: 'The event server is misconfigured. Please contact support.',
};

function el(testId) {
  return document.querySelector(`[data-testid="${testId}"]`);
}

function withRedirect(base, extra) {
  const url = new URL(base, window.location.href);
  url.searchParams.set('redirect_url', window.location.href.split('#')[0]);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value);
  return url.toString();
}

function reset() {
  for (const id of ['player', 'problem', 'login-link', 'login-unavailable', 'retry-button', 'logout-link']) {
    el(id).hidden = true;
  }
}

function showLogin(config) {
  if (config.login_url) {
    const link = el('login-link');
    link.href = withRedirect(config.login_url, config.game_id ? { game_id: config.game_id } : {});
    link.hidden = false;
  } else {
    el('login-unavailable').hidden = false;
  }
}

function showPlayer(config, user) {
  el('status').textContent = 'You are logged in.';
  el('member-no').textContent = String(user.member_no);
  el('guid').textContent = user.guid === null ? '(not registered for this game yet)' : String(user.guid);
  el('player').hidden = false;
  if (config.logout_url) {
    const link = el('logout-link');
    link.href = withRedirect(config.logout_url, {});
    link.hidden = false;
  }
}

function showProblem(config, status, problem, retryAfter) {
  const action = typeof problem.action === 'string' ? problem.action : '';
  if (action === 'login') {
    el('status').textContent = MESSAGES.login;
    showLogin(config);
    return;
  }
  el('status').textContent = status >= 500 ? 'Something went wrong.' : 'You cannot join the event yet.';
  let message = Object.hasOwn(MESSAGES, action) ? MESSAGES[action] : `Unexpected answer from the server (HTTP ${status}).`;
  if (action === 'retry_later' && /^\d{1,6}$/.test(retryAfter ?? '')) message += ` Try again in ${retryAfter} seconds.`;
  el('message').textContent = message;
  el('problem').dataset.action = action;
  el('problem').hidden = false;
  if (action === 'relogin') showLogin(config);
  if (action === 'retry_later' || action === 'register_device' || action === '') el('retry-button').hidden = false;
}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return {};
  }
}

async function refresh() {
  reset();
  el('status').textContent = 'Checking your login…';
  let config = { login_url: null, logout_url: null, game_id: null };
  try {
    const configResponse = await fetch('/api/event/config', { headers: { accept: 'application/json' } });
    if (configResponse.ok) config = await configResponse.json();
    const response = await fetch('/api/event/me', { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (response.ok) {
      showPlayer(config, await response.json());
    } else {
      showProblem(config, response.status, await readJson(response), response.headers.get('retry-after'));
    }
  } catch {
    showProblem(config, 0, { action: 'retry_later' }, null);
  }
  document.body.dataset.state = 'ready';
}

document.addEventListener('DOMContentLoaded', () => {
  el('retry-button').addEventListener('click', () => { void refresh(); });
  void refresh();
});
