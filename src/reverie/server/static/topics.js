// Topics: the user's topic files (what conversations concluded), one topic's lines, splitting, recent topics.

import { api } from './api.js';
import { h, icon, guard, notify, confirmDialog, plural, uid } from './dom.js';

const MIN_SPLIT_LINES = 4;
const DAY = { month: 'short', day: 'numeric', year: 'numeric' };

/** "Jan 15, 2026" for a topic line's "2026-01-15" (a calendar day, so no time zone shift). */
function lineDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text || '');
  if (!match) return text || '';
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toLocaleDateString('en-US', DAY);
}

function buildHeader() {
  const helpId = uid('help');
  const help = h('div', { id: helpId, class: 'help card', hidden: true },
    h('p', {}, 'When a conversation reaches a conclusion (you decide something, find something out, or confirm '
      + 'what the assistant noticed), Reverie writes it down as one dated line in a file for its topic.'),
    h('p', {}, 'The files are plain Markdown that you may edit; Reverie picks up your changes. A long topic '
      + 'can be split into subtopics, and every line ends up in exactly one of them.'));
  const button = h('button', { type: 'button', class: 'icon-btn', 'aria-expanded': 'false',
    'aria-controls': helpId, 'aria-label': 'What are topics?' }, icon('help'));
  button.addEventListener('click', () => {
    help.hidden = !help.hidden;
    button.setAttribute('aria-expanded', String(!help.hidden));
  });
  return [h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'Topics'), button), help];
}

function buildLayout(container) {
  const view = {};
  view.list = h('ul', { class: 'items topic-list', 'aria-labelledby': 'topics-title' });
  view.empty = h('div', { class: 'empty', hidden: true });
  view.recent = h('ul', { class: 'recent' });
  view.recentEmpty = h('p', { class: 'muted', hidden: true }, 'No conversations have been digested yet.');
  view.detail = h('section', { class: 'card topic-detail', 'aria-live': 'polite', 'aria-label': 'Topic' });
  const listCard = h('section', { class: 'card topics-card', 'aria-labelledby': 'topics-title' },
    h('h2', { id: 'topics-title' }, 'Your topics'), view.list, view.empty);
  const recentCard = h('section', { class: 'card recent-card', 'aria-labelledby': 'recent-title' },
    h('h2', { id: 'recent-title' }, 'Recent topics'),
    h('p', { class: 'muted hint' }, 'The assistant sees this list at the start of each conversation.'),
    view.recent, view.recentEmpty);
  container.append(...buildHeader(),
    view.layout = h('div', { class: 'topics-layout' }, listCard, view.detail, recentCard));
  return view;
}

// the list --------------------------------------------------------------------------------
function brokenRow(topic) {
  const kept = topic.lines ? ` Its ${plural(topic.lines, 'line')} stay in memory until it is fixed.` : '';
  return h('li', { class: 'item topic-broken', dataset: { slug: topic.slug } },
    h('div', { class: 'warning', role: 'note' },
      h('span', { class: 'warning-icon', 'aria-hidden': 'true' }, '!'),
      h('div', {},
        h('p', { class: 'item-title' }, h('code', {}, `${topic.slug}.md`), ' cannot be read'),
        h('p', { class: 'warning-text' }, `${topic.error}.${kept} Fix the file and it is read again.`))));
}

function topicRow(state, topic) {
  if (topic.error) return brokenRow(topic);
  const button = h('button', { type: 'button', class: 'topic-item', 'aria-current': String(state.open === topic.slug),
    dataset: { slug: topic.slug } },
  h('span', { class: 'topic-title' }, topic.title),
  h('span', { class: 'topic-meta' }, `${topic.slug}.md  ·  ${plural(topic.lines, 'line')}`));
  button.addEventListener('click', guard(() => state.openTopic(topic.slug)));
  return h('li', { class: 'topic-row' }, button);
}

function emptyState(view, data) {
  const parts = [
    h('div', { class: 'empty-icon', 'aria-hidden': 'true' }, icon('file')),
    h('p', { class: 'empty-title' }, 'No topics yet.'),
    h('p', {}, 'Topics appear as your conversations reach conclusions: when you decide something or find '
      + 'something out, Reverie writes it down in a file for that topic, one dated line each.'),
  ];
  if (data.folder) parts.push(h('p', {}, 'The files live in ', h('code', {}, data.folder), '.'));
  view.empty.replaceChildren(...parts);
}

function recentRow(line) {
  const match = /^(.+?): (.*)$/.exec(line);
  if (!match) return h('li', {}, line);
  return h('li', {}, h('span', { class: 'recent-when' }, match[1]), h('span', { class: 'recent-what' }, match[2]));
}

function renderList(view, state, data) {
  view.list.replaceChildren(...data.topics.map((topic) => topicRow(state, topic)));
  view.empty.hidden = data.topics.length > 0;
  view.layout.classList.toggle('is-empty', !data.topics.length);
  if (!data.topics.length) emptyState(view, data);
  view.recent.replaceChildren(...data.recent.map(recentRow));
  view.recentEmpty.hidden = data.recent.length > 0;
}

// one topic -------------------------------------------------------------------------------
function placeholder(view, state) {
  const usable = state.topics.filter((topic) => !topic.error);
  view.detail.classList.add('is-placeholder');
  view.detail.replaceChildren(h('p', { class: 'muted topic-placeholder' },
    usable.length ? 'Choose a topic to see what was concluded.' : 'Nothing to show yet.'));
}

function splitButton(state, topic) {
  const enough = topic.lines.length >= MIN_SPLIT_LINES;
  const hintId = uid('split');
  const button = h('button', { type: 'button', class: 'btn', disabled: !enough,
    'aria-describedby': enough ? null : hintId }, 'Split into subtopics');
  button.addEventListener('click', guard(async () => {
    const ok = await confirmDialog({ title: `Split ${topic.title}?`, confirmLabel: 'Split', danger: false,
      body: h('p', {}, `Its ${plural(topic.lines.length, 'line')} are shared out among new subtopic files by `
        + 'meaning; every line lands in exactly one of them and this file goes away.') });
    if (!ok) return;
    button.disabled = true;
    button.textContent = 'Splitting…';
    try {
      const answer = await api(`/api/v1/topics/${encodeURIComponent(topic.slug)}/split`, { method: 'POST' });
      await state.afterSplit(topic, answer.subtopics);
    } finally {
      button.disabled = false;
      button.textContent = 'Split into subtopics';
    }
  }));
  return [button, enough ? null : h('p', { class: 'hint', id: hintId },
    `A topic needs at least ${MIN_SPLIT_LINES} lines to be split.`)];
}

function renderTopic(view, state, topic) {
  view.detail.classList.remove('is-placeholder');
  const lines = h('ol', { class: 'topic-lines' }, topic.lines.map((line) => h('li', {},
    h('span', { class: 'line-text' }, line.text),
    line.date ? h('time', { class: 'line-date', datetime: line.date }, lineDate(line.date)) : null)));
  view.detail.replaceChildren(
    h('div', { class: 'topic-head' },
      h('div', {}, h('h2', { id: 'topic-title', tabindex: '-1' }, topic.title),
        h('p', { class: 'muted' }, `${topic.slug}.md  ·  ${plural(topic.lines.length, 'line')}`)),
      h('div', { class: 'topic-actions' }, ...splitButton(state, topic))),
    topic.lines.length ? lines : h('p', { class: 'muted' }, 'This topic has no lines yet.'),
    h('details', { class: 'markdown' }, h('summary', {}, 'Markdown'), h('pre', {}, topic.markdown)));
}

function renderSplit(view, state, topic, subtopics) {
  view.detail.classList.remove('is-placeholder');
  const links = subtopics.map((slug) => {
    const found = state.topics.find((t) => t.slug === slug);
    const button = h('button', { type: 'button', class: 'btn btn-small' }, found ? found.title : slug);
    button.addEventListener('click', guard(() => state.openTopic(slug)));
    return h('li', {}, button, found ? h('span', { class: 'muted' }, ` ${plural(found.lines, 'line')}`) : null);
  });
  view.detail.replaceChildren(
    h('h2', { id: 'topic-title', tabindex: '-1' }, `${topic.title} was split`),
    h('p', {}, `Into ${plural(subtopics.length, 'subtopic')}:`),
    h('ul', { class: 'subtopics' }, ...links));
}

/** Render the Topics page into `container`. */
export async function topicsPage(container) {
  const view = buildLayout(container);
  const state = { topics: [], open: null, ticket: 0 };
  const focusDetail = () => view.detail.querySelector('h2')?.focus();
  state.load = async () => {
    const mine = ++state.ticket;
    const data = await api('/api/v1/topics');
    if (mine !== state.ticket) return;
    state.topics = data.topics;
    renderList(view, state, data);
  };
  state.openTopic = async (slug) => {
    const topic = await api(`/api/v1/topics/${encodeURIComponent(slug)}`);
    state.open = slug;
    for (const button of view.list.querySelectorAll('.topic-item')) {
      button.setAttribute('aria-current', String(button.dataset.slug === slug));
    }
    renderTopic(view, state, topic);
    focusDetail();
  };
  state.afterSplit = async (topic, subtopics) => {
    state.open = null;
    await state.load();
    renderSplit(view, state, topic, subtopics);
    notify(`Split ${topic.title} into ${plural(subtopics.length, 'subtopic')}.`, 'ok');
    focusDetail();
  };
  await state.load();
  placeholder(view, state);
}
