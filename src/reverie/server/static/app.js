// Reverie's web UI: sign-in, the page router and the user menu.

import { api, setCsrf, whenSignedOut } from './api.js';
import { h, guard, errorText, notify } from './dom.js';
import { memoryPage } from './memory.js';
import { topicsPage } from './topics.js';
import { chatPage } from './chat.js';
import { knowledgePage } from './knowledge.js';
import { settingsPage } from './settings.js';
import { usersPage } from './users.js';

const PAGES = {
  memory: { title: 'My Memory', render: memoryPage },
  topics: { title: 'Topics', render: topicsPage },
  chat: { title: 'Chat', render: chatPage },
  knowledge: { title: 'Knowledge Base', render: knowledgePage },
  settings: { title: 'Settings', render: settingsPage },
  users: { title: 'Users', render: usersPage, admin: true },
};

const session = { user: null, cleanup: null };
const main = () => document.getElementById('main');

function pageName() {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  if (PAGES[name]?.admin && !session.user?.is_admin) return 'memory';
  return PAGES[name] ? name : 'memory';
}

function markCurrent(name) {
  for (const link of document.querySelectorAll('.mainnav a')) {
    if (link.dataset.page === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

// Said on every page while chat cannot work, with the way to fix it.
async function showLlmBanner(user) {
  const banner = document.getElementById('llm-banner');
  const status = await api('/api/v1/llm/status').catch(() => null);
  if (!status || !session.user || (status.configured && status.reachable !== false)) {
    banner.hidden = true;
    return;
  }
  const text = status.configured ? 'Chat is off: the chat model does not answer.'
    : 'Chat is off: no language model (LLM) is set up.';
  const action = user.is_admin ? h('a', { href: '#/settings' }, 'Set up the chat model')
    : 'Ask an admin to set one up in Settings.';
  banner.replaceChildren(h('strong', {}, text), ' Memory, search and documents work without it. ', action);
  banner.hidden = false;
}

async function showPage({ focus = true } = {}) {
  if (!session.user) return;
  showLlmBanner(session.user);
  if (session.cleanup) session.cleanup();
  session.cleanup = null;
  const name = pageName();
  const page = PAGES[name];
  document.title = `${page.title} · Reverie`;
  markCurrent(name);
  const container = h('div', { class: `page page-${name}` });
  main().replaceChildren(container);
  session.cleanup = (await page.render(container, { user: session.user })) || null;
  // A page that rendered slowly must not pull focus away from a field the user is already in.
  const untouched = !document.activeElement || document.activeElement === document.body
    || !container.contains(document.activeElement);
  if (focus && untouched) {
    const heading = container.querySelector('h1');
    if (heading) heading.focus({ preventScroll: true });
  }
}

// signing in ------------------------------------------------------------------------------
function setupHint(status) {
  if (!status.setup_needed) return null;
  if (status.setup_here) {
    return h('p', { class: 'hint' }, 'No account exists yet. ',
      h('a', { href: '/setup' }, 'Create the first admin account'), '.');
  }
  return h('p', { class: 'hint' }, 'No account exists yet: on the server, run ',
    h('code', {}, 'reverie users add NAME --admin'), '.');
}

function loginForm(status) {
  const error = h('p', { class: 'form-error', role: 'alert' });
  const name = h('input', { id: 'login-name', class: 'input', name: 'username', autocomplete: 'username',
    required: true });
  const password = h('input', { id: 'login-password', class: 'input', type: 'password', name: 'password',
    autocomplete: 'current-password', required: true });
  const button = h('button', { type: 'submit', class: 'btn btn-primary btn-block' }, 'Sign in');
  const form = h('form', { class: 'login-form', 'aria-labelledby': 'login-title' },
    h('label', { class: 'label', for: 'login-name' }, 'User name'), name,
    h('label', { class: 'label', for: 'login-password' }, 'Password'), password,
    error, button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    button.disabled = true;
    try {
      const me = await api('/api/v1/auth/login', { method: 'POST',
        body: { name: name.value.trim(), password: password.value } });
      await signedIn(me);
    } catch (err) {
      error.textContent = errorText(err);
      password.select();
    } finally {
      button.disabled = false;
    }
  });
  return { form, name };
}

function showLogin(status) {
  session.user = null;
  if (session.cleanup) session.cleanup();
  session.cleanup = null;
  document.getElementById('topbar').hidden = true;
  document.getElementById('llm-banner').hidden = true;
  document.title = 'Sign in · Reverie';
  const { form, name } = loginForm(status);
  const card = h('section', { class: 'login card' },
    h('div', { class: 'login-brand' }, h('img', { src: '/static/icon.svg', alt: '', width: 40, height: 40 }),
      h('h1', { id: 'login-title' }, 'Sign in to Reverie')),
    h('p', { class: 'muted' }, 'See, correct and delete what your assistant remembers about you.'),
    form, setupHint(status));
  main().replaceChildren(card);
  name.focus();
}

async function signedIn(me) {
  setCsrf(me.csrf_token);
  session.user = me.user;
  fillUserMenu(me.user);
  document.getElementById('topbar').hidden = false;
  await showPage();
}

async function signedOut() {
  setCsrf(null);
  const status = await api('/api/v1/auth/status');
  showLogin(status);
}

// the user menu ---------------------------------------------------------------------------
function fillUserMenu(user) {
  const label = user.display_name || user.name;
  document.querySelector('.user-name').textContent = label;
  document.querySelector('.avatar').textContent = label.slice(0, 1).toUpperCase();
  const who = document.querySelector('.menu-who');
  who.replaceChildren('Signed in as ', h('strong', {}, user.name), user.is_admin ? ' (admin)' : '');
  document.querySelector('.mainnav a[data-page="users"]').hidden = !user.is_admin;
}

function setMenu(open) {
  const button = document.getElementById('user-button');
  document.getElementById('user-menu').hidden = !open;
  button.setAttribute('aria-expanded', String(open));
}

function wireUserMenu() {
  const button = document.getElementById('user-button');
  const menu = document.getElementById('user-menu');
  button.addEventListener('click', () => {
    const open = menu.hidden;
    setMenu(open);
    if (open) menu.querySelector('.menu-item').focus();
  });
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      setMenu(false);
      button.focus();
    }
  });
  document.addEventListener('click', (event) => {
    if (!menu.hidden && !event.target.closest('.usermenu')) setMenu(false);
  });
  document.getElementById('export-link').addEventListener('click', () => {
    setMenu(false);
    notify('Your export is downloading.', 'ok');
  });
  document.getElementById('logout-button').addEventListener('click', guard(async () => {
    setMenu(false);
    await api('/api/v1/auth/logout', { method: 'POST' });
    await signedOut();
  }));
}

// start -----------------------------------------------------------------------------------
async function start() {
  wireUserMenu();
  whenSignedOut(() => {
    if (session.user) guard(signedOut)();
  });
  window.addEventListener('hashchange', guard(() => showPage()));
  window.addEventListener('reverie:signed-out', guard(signedOut));
  const status = await api('/api/v1/auth/status');
  if (!status.signed_in) {
    showLogin(status);
    return;
  }
  await signedIn(await api('/api/v1/auth/me'));
}

guard(start)();
