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
  denied: 'You cannot join the event with this account.',
};

// What the player reads when the server ends the live session.
const ENDED = {
  logout: 'You were logged out. Please log in again.',
  admin: 'An administrator ended your session.',
  shutdown: 'The event server is restarting. Reconnecting…',
};

let live = null;

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

// Live presence over Socket.IO: the browser sends the web token cookie with the handshake.
function connectLive(config) {
  if (typeof io !== 'function') return;
  if (live) live.close();
  const presence = el('presence');
  const socket = io({ transports: ['websocket'], reconnection: false });
  live = socket;
  socket.on('session', (session) => {
    presence.dataset.state = 'online';
    presence.textContent = `Live: connected as ${String(session.member_no)}`;
  });
  const ended = (message, action) => {
    presence.dataset.state = 'offline';
    presence.textContent = 'Live: disconnected';
    socket.close();
    reset();
    showProblem(config, action === 'retry_later' ? 503 : 401, { action }, null, message);
  };
  socket.on('auth:expired', (payload) => ended(undefined, payload && typeof payload.action === 'string' ? payload.action : 'relogin'));
  socket.on('session:ended', (payload) => {
    const reason = payload && typeof payload.reason === 'string' ? payload.reason : '';
    if (reason === 'shutdown') {
      presence.textContent = ENDED.shutdown;
      socket.close();
      setTimeout(() => { void refresh(); }, 2000);
      return;
    }
    ended(Object.hasOwn(ENDED, reason) ? ENDED[reason] : undefined, reason === 'admin' ? 'denied' : 'relogin');
  });
  socket.on('connect_error', (err) => {
    presence.dataset.state = 'offline';
    presence.textContent = `Live: unavailable (${err && err.message ? err.message : 'error'})`;
  });
}

function showProblem(config, status, problem, retryAfter, text) {
  const action = typeof problem.action === 'string' ? problem.action : '';
  if (action === 'login') {
    el('status').textContent = MESSAGES.login;
    showLogin(config);
    return;
  }
  el('status').textContent = status >= 500 ? 'Something went wrong.' : 'You cannot join the event yet.';
  let message = text ?? (Object.hasOwn(MESSAGES, action) ? MESSAGES[action] : `Unexpected answer from the server (HTTP ${status}).`);
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
      connectLive(config);
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
