// Chat: talk to the assistant through Reverie (OpenAI-compatible streaming), with the privacy toggle.

import { api, headersFor, readAnswer } from './api.js';
import { h, icon, guard, notify, errorText, formatDateTime } from './dom.js';

const INTERFACE = 'web';
const HISTORY_TURNS = 20;

// layout ----------------------------------------------------------------------------------
function buildLayout(container) {
  const view = {};
  view.history = h('ul', { class: 'history', 'aria-label': 'Conversations' });
  view.newChat = h('button', { type: 'button', class: 'btn' }, icon('plus'), 'New chat');
  view.privacy = h('button', { type: 'button', class: 'btn privacy-toggle', 'aria-pressed': 'false',
    'aria-keyshortcuts': 'Control+Shift+P', title: 'Ctrl+Shift+P' });
  view.banner = h('p', { class: 'private-banner', hidden: true }, icon('lock'),
    'Private conversation: nothing from it will be remembered.');
  view.notice = h('div', { class: 'notice notice-warning', role: 'status', hidden: true },
    h('p', {}, h('strong', {}, 'Chat needs a language model, and none is configured. '),
      'Remembering, search and documents work without one.'),
    h('p', {}, h('a', { href: '#/settings', class: 'btn btn-small' }, 'Set up a chat model (LLM)')));
  view.log = h('ol', { class: 'messages', role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages' });
  view.input = h('textarea', { id: 'chat-input', class: 'input', rows: 2, placeholder: 'Message Reverie…' });
  view.send = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Send');
  view.proposals = h('ul', { class: 'proposals', 'aria-label': 'Offered to remember', hidden: true });
  view.form = h('form', { class: 'chat-form' },
    h('label', { class: 'visually-hidden', for: 'chat-input' }, 'Message'), view.input, view.send);
  container.append(
    h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'Chat')),
    h('div', { class: 'chat-layout' },
      h('aside', { class: 'card chat-history', 'aria-labelledby': 'history-title' },
        h('h2', { id: 'history-title' }, 'History'), view.history),
      h('section', { class: 'card chat-main', 'aria-label': 'Conversation' },
        h('div', { class: 'chat-toolbar' }, view.newChat, view.privacy,
          h('span', { class: 'muted shortcut' }, h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Shift'), '+',
            h('kbd', {}, 'P'))),
        view.notice, view.banner, view.log, view.proposals, view.form)));
  return view;
}

function renderPrivacy(view, chat) {
  view.privacy.setAttribute('aria-pressed', String(chat.private));
  view.privacy.replaceChildren(icon(chat.private ? 'lock' : 'unlock'),
    chat.private ? 'Private: on' : 'Private: off');
  view.banner.hidden = !chat.private;
}

// messages --------------------------------------------------------------------------------
function bubble(role, text) {
  const who = role === 'user' ? 'You' : 'Reverie';
  return h('li', { class: `msg msg-${role}` }, h('span', { class: 'msg-who' }, who),
    h('p', { class: 'msg-text' }, text));
}

function renderMessages(view, chat) {
  view.log.replaceChildren(...chat.messages.map((m) => bubble(m.role, m.content)));
  if (!chat.messages.length) {
    view.log.append(h('li', { class: 'msg-empty muted' },
      'Say hello. What you tell the assistant here can be remembered, unless the chat is private.'));
  }
  view.log.scrollTop = view.log.scrollHeight;
}

function sseEvents(buffer) {
  const events = buffer.split('\n\n');
  return { complete: events.slice(0, -1), rest: events[events.length - 1] };
}

function deltaOf(event) {
  const data = event.split('\n').filter((line) => line.startsWith('data: ')).map((l) => l.slice(6)).join('');
  if (!data || data === '[DONE]') return '';
  const payload = JSON.parse(data);
  if (payload.error) throw new Error(payload.error.message);
  return payload.choices?.[0]?.delta?.content || '';
}

async function streamReply(response, onText) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parsed = sseEvents(buffer + decoder.decode(value, { stream: true }));
    buffer = parsed.rest;
    for (const event of parsed.complete) {
      text += deltaOf(event);
      onText(text);
    }
  }
  return text;
}

async function ensureConversation(chat) {
  if (chat.id) return;
  const started = await api('/api/v1/conversations', { method: 'POST',
    body: { interface: INTERFACE, private: chat.private } });
  chat.id = started.id;
}

async function send(view, chat, text) {
  await ensureConversation(chat);
  chat.messages.push({ role: 'user', content: text });
  renderMessages(view, chat);
  const reply = bubble('assistant', '…');
  view.log.append(reply);
  const headers = headersFor('POST', { 'Content-Type': 'application/json',
    'X-Reverie-Conversation': String(chat.id), Accept: 'text/event-stream' });
  if (chat.private) headers['X-Reverie-Private'] = 'true';
  const messages = chat.messages.slice(-HISTORY_TURNS).map(({ role, content }) => ({ role, content }));
  let answer;
  try {
    const response = await fetch('/v1/chat/completions', { method: 'POST', credentials: 'same-origin', headers,
      body: JSON.stringify({ model: 'reverie', messages, stream: true }) });
    if (!response.ok) await readAnswer(response);
    chat.id = Number(response.headers.get('X-Reverie-Conversation')) || chat.id;
    const textNode = reply.querySelector('.msg-text');
    answer = await streamReply(response, (sofar) => { textNode.textContent = sofar; });
  } catch (err) {
    reply.remove(); // no empty bubble: the error says what happened instead
    throw err;
  }
  chat.messages.push({ role: 'assistant', content: answer });
  renderMessages(view, chat);
  await refreshProposals(view, chat);
}

// observations the assistant offered to remember (Rostro): yes keeps them, no drops them ----
function proposalItem(view, chat, proposal) {
  const answer = (action) => guard(async () => {
    await api(`/api/v1/conversations/${chat.id}/state`, { method: 'POST', body: { action, value: proposal.id } });
    notify(action === 'confirm' ? 'Remembered.' : 'Not remembered.');
    await refreshProposals(view, chat);
  });
  const yes = h('button', { type: 'button', class: 'btn btn-small btn-primary' }, 'Yes, remember');
  const no = h('button', { type: 'button', class: 'btn btn-small' }, 'No');
  yes.addEventListener('click', answer('confirm'));
  no.addEventListener('click', answer('decline'));
  return h('li', { class: 'proposal' },
    h('span', {}, 'Reverie offered to remember: ', h('q', {}, proposal.text)), yes, no);
}

async function refreshProposals(view, chat) {
  const found = chat.id ? await api(`/api/v1/conversations/${chat.id}/state`) : null;
  const items = found?.state?.proposals || [];
  view.proposals.replaceChildren(...items.map((p) => proposalItem(view, chat, p)));
  view.proposals.hidden = !items.length;
}

// history ---------------------------------------------------------------------------------
function historyItem(conversation, current, onOpen) {
  const badge = conversation.private ? h('span', { class: 'badge badge-private' }, icon('lock'), 'Private') : null;
  const button = h('button', { type: 'button', class: 'history-item',
    'aria-current': conversation.id === current ? 'true' : null },
  h('span', { class: 'history-when' }, formatDateTime(conversation.started_at)),
  h('span', { class: 'history-meta' }, `${conversation.interface} · ${conversation.state}`), badge);
  button.addEventListener('click', () => onOpen(conversation.id));
  return h('li', { dataset: { id: conversation.id } }, button);
}

async function refreshHistory(view, chat, onOpen) {
  chat.historyLoads += 1;
  const mine = chat.historyLoads;
  const conversations = await api('/api/v1/conversations?limit=30');
  if (mine !== chat.historyLoads) return; // a newer load is on its way
  view.history.replaceChildren(...conversations.map((c) => historyItem(c, chat.id, onOpen)));
  if (!conversations.length) view.history.append(h('li', { class: 'muted' }, 'No conversations yet.'));
}

async function openConversation(chat, id) {
  const found = await api(`/api/v1/conversations/${id}?limit=100`);
  chat.id = found.id;
  chat.private = found.private;
  chat.messages = found.messages.filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => ({ role: m.role, content: m.content }));
}

async function togglePrivacy(view, chat, refresh) {
  chat.private = !chat.private;
  renderPrivacy(view, chat);
  if (chat.id) {
    const saved = await api(`/api/v1/conversations/${chat.id}/private`, { method: 'PUT',
      body: { private: chat.private } });
    chat.private = saved.private;
    renderPrivacy(view, chat);
  }
  notify(chat.private ? 'This conversation is private: nothing will be remembered.'
    : 'This conversation is no longer private.', 'ok');
  await refresh();
}

async function newChat(chat) {
  const previous = chat.messages.length ? chat.id : null;
  Object.assign(chat, { id: null, messages: [] });
  if (previous) await api(`/api/v1/conversations/${previous}/end`, { method: 'POST' });
}

function wireComposer(view, chat, refresh) {
  view.form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    const text = view.input.value.trim();
    if (!text || view.send.disabled) return;
    view.input.value = '';
    view.send.disabled = true;
    try {
      await send(view, chat, text);
    } catch (err) {
      view.log.append(h('li', { class: 'msg msg-error', role: 'alert' }, `Could not get a reply: ${errorText(err)}`));
    } finally {
      view.send.disabled = false;
      view.input.focus();
      await refresh();
    }
  }));
  view.input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      view.form.requestSubmit();
    }
  });
}

/** Render the chat page; returns a cleanup function (it removes the Ctrl+Shift+P shortcut). */
export async function chatPage(container, { user } = {}) {
  const view = buildLayout(container);
  if (!user?.is_admin) { // only an admin can set the model up
    view.notice.lastChild.replaceChildren('Ask an admin to set up a chat model in Settings.');
  }
  const chat = { id: null, private: false, messages: [], historyLoads: 0 };
  const open = guard(async (id) => {
    await openConversation(chat, id);
    renderPrivacy(view, chat);
    renderMessages(view, chat);
    await refreshProposals(view, chat);
    await refresh();
  });
  const refresh = () => refreshHistory(view, chat, open);
  let toggling = Promise.resolve();
  // One change at a time, so that quick presses reach the server in order.
  const toggle = () => { toggling = toggling.then(guard(() => togglePrivacy(view, chat, refresh))); };
  const shortcut = (event) => {
    if (event.ctrlKey && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'p') {
      event.preventDefault();
      toggle();
    }
  };
  view.privacy.addEventListener('click', toggle);
  view.newChat.addEventListener('click', guard(async () => {
    const ending = newChat(chat);
    renderMessages(view, chat);
    view.proposals.replaceChildren();
    view.proposals.hidden = true;
    await ending;
    await refresh();
    view.input.focus();
  }));
  wireComposer(view, chat, refresh);
  const models = await api('/v1/models').catch(() => ({ data: [] }));
  if (!models.data.length) { // said before the first message, not after it
    view.notice.hidden = false;
    view.input.disabled = true;
    view.send.disabled = true;
    view.input.placeholder = 'Chat is off until a language model is set up';
  }
  document.addEventListener('keydown', shortcut);
  renderPrivacy(view, chat);
  renderMessages(view, chat);
  await refresh();
  return () => document.removeEventListener('keydown', shortcut);
}
