// My Memory: stats, charts, the Facts / Preferences / Summaries tabs, search, edit, delete, forget all.

import { api, query } from './api.js';
import { chartsCard } from './chart.js';
import {
  h, icon, guard, notify, confirmDialog, formatDate, formatDateTime, percent, plural, uid,
} from './dom.js';

const PAGE_SIZE = 20;
const TABS = {
  fact: { label: 'Facts', one: 'fact', many: 'facts', stat: 'facts' },
  preference: { label: 'Preferences', one: 'preference', many: 'preferences', stat: 'preferences' },
  summary: { label: 'Summaries', one: 'summary', many: 'summaries', stat: 'summaries' },
};

// confidence --------------------------------------------------------------------------------
function level(confidence) {
  if (confidence > 0.8) return 'high';
  if (confidence >= 0.5) return 'medium';
  return 'low';
}

function dot(confidence) {
  const name = level(confidence);
  return h('span', { class: `dot dot-${name}`, title: `${name[0].toUpperCase()}${name.slice(1)} confidence`,
    'aria-hidden': 'true' });
}

function humanize(key) {
  const text = (key || 'preference').replace(/[_-]+/g, ' ');
  return text[0].toUpperCase() + text.slice(1);
}

// layout ----------------------------------------------------------------------------------
function statItem(label, valueNode) {
  return h('div', { class: 'stat' }, h('dt', {}, label), h('dd', {}, valueNode));
}

function buildHeader() {
  const helpId = uid('help');
  const help = h('div', { id: helpId, class: 'help card', hidden: true },
    h('p', {}, 'This is everything Reverie keeps about you. Facts and preferences come from what you '
      + 'said (explicit) or what Reverie worked out (inferred); summaries recall past conversations.'),
    h('p', {}, 'A green dot means high confidence (over 80%), yellow medium (50–80%); faded text is '
      + 'below 50% and will soon be forgotten unless it comes up again.'),
    h('p', {}, 'A "Sensitive" badge marks health, finance or identity details. Reverie keeps those only when '
      + 'you ask it to remember them, never from what it works out on its own.'));
  const button = h('button', { type: 'button', class: 'icon-btn', 'aria-expanded': 'false',
    'aria-controls': helpId, 'aria-label': 'What is this page?' }, icon('help'));
  button.addEventListener('click', () => {
    help.hidden = !help.hidden;
    button.setAttribute('aria-expanded', String(!help.hidden));
  });
  return [h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'My Memory'), button), help];
}

function buildTabs(view) {
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Kinds of memory' });
  for (const [kind, tab] of Object.entries(TABS)) {
    const button = h('button', { type: 'button', role: 'tab', id: `tab-${kind}`, class: 'tab',
      'aria-controls': 'memory-panel', 'aria-selected': 'false', tabindex: '-1', dataset: { kind } },
    tab.label, ' ', h('span', { class: 'count' }));
    list.append(button);
    view.tabs[kind] = button;
  }
  list.addEventListener('keydown', (event) => {
    const kinds = Object.keys(TABS);
    const at = kinds.indexOf(document.activeElement.dataset.kind);
    const move = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (at < 0 || !move) return;
    event.preventDefault();
    const next = view.tabs[kinds[(at + move + kinds.length) % kinds.length]];
    next.click();
    next.focus();
  });
  return list;
}

function select(id, label, options) {
  return h('div', { class: 'field' }, h('label', { class: 'label', for: id }, label),
    h('select', { id, class: 'input' }, options.map(([value, text]) => h('option', { value }, text))));
}

function dateInput(id, label) {
  return h('div', { class: 'field' }, h('label', { class: 'label', for: id }, label),
    h('input', { id, class: 'input', type: 'date' }));
}

function buildSearch(view) {
  view.search = h('input', { id: 'memory-search', class: 'input search-input', type: 'search',
    placeholder: 'Search memories…', autocomplete: 'off' });
  view.filterButton = h('button', { type: 'button', class: 'btn', 'aria-expanded': 'false',
    'aria-controls': 'memory-filters' }, icon('filter'), 'Filter');
  view.filters = h('div', { id: 'memory-filters', class: 'filters', hidden: true },
    select('filter-source', 'Source', [['', 'Any source'], ['explicit', 'Explicit'], ['inferred', 'Inferred']]),
    select('filter-order', 'Sort by', [['recent', 'Newest first'], ['confidence', 'Confidence']]),
    dateInput('filter-from', 'From'),
    dateInput('filter-to', 'To'),
    h('button', { type: 'button', class: 'btn btn-quiet', id: 'filter-clear' }, 'Clear filters'));
  return h('div', { class: 'search-row' },
    h('div', { class: 'search-box' }, icon('search'),
      h('label', { class: 'visually-hidden', for: 'memory-search' }, 'Search memories'), view.search),
    view.filterButton);
}

function buildAddForm(view) {
  view.addText = h('input', { id: 'add-text', class: 'input', autocomplete: 'off',
    placeholder: "e.g. I'm allergic to shellfish" });
  view.addCategory = h('input', { id: 'add-category', class: 'input', autocomplete: 'off',
    placeholder: 'e.g. verbosity' });
  view.addTextLabel = h('label', { class: 'label', for: 'add-text' }, 'Remember a fact');
  view.categoryField = h('div', { class: 'field', hidden: true },
    h('label', { class: 'label', for: 'add-category' }, 'Category'), view.addCategory);
  // A secret (a password, an ID number) is refused unless the user asks to keep it as sensitive.
  view.addSensitive = h('input', { id: 'add-sensitive', type: 'checkbox' });
  view.sensitiveField = h('div', { class: 'field' },
    h('label', { class: 'label', for: 'add-sensitive' }, view.addSensitive, ' Keep as sensitive'));
  view.addForm = h('form', { class: 'add-form card' }, view.categoryField,
    h('div', { class: 'field grow' }, view.addTextLabel, view.addText), view.sensitiveField,
    h('button', { type: 'submit', class: 'btn btn-primary' }, icon('plus'), 'Remember'));
  return view.addForm;
}

function buildLayout(container) {
  const view = { tabs: {} };
  view.stats = h('dl', { class: 'stats card', 'aria-label': 'Memory statistics' });
  view.charts = h('section', { class: 'card charts-card', 'aria-label': 'Charts' });
  view.list = h('ul', { class: 'items', 'aria-live': 'polite' });
  view.empty = h('div', { class: 'empty', hidden: true });
  view.showing = h('p', { class: 'muted showing' });
  view.more = h('button', { type: 'button', class: 'btn', hidden: true }, 'Load more');
  view.forget = h('button', { type: 'button', class: 'btn btn-danger' }, 'Forget Everything');
  view.panel = h('div', { id: 'memory-panel', role: 'tabpanel', class: 'panel', 'aria-labelledby': 'tab-fact' },
    buildSearch(view), view.filters, view.list, view.empty,
    h('div', { class: 'list-foot' }, view.showing, view.more));
  container.append(...buildHeader(), view.stats, view.charts, buildAddForm(view), buildTabs(view), view.panel,
    h('section', { class: 'danger-zone', 'aria-label': 'Forget everything' },
      h('p', { class: 'muted' }, 'Delete every fact, preference and summary Reverie keeps about you.'),
      view.forget));
  return view;
}

// stats and charts --------------------------------------------------------------------------
function renderStats(view, stats) {
  const used = stats.context_tokens ?? 0;
  const budget = stats.context_budget ?? 0;
  const meter = h('meter', { min: 0, max: budget || 1, value: used, 'aria-label': 'Context tokens used' });
  view.stats.replaceChildren(
    statItem('Facts', String(stats.facts ?? 0)),
    statItem('Preferences', String(stats.preferences ?? 0)),
    statItem('Summaries', String(stats.summaries ?? 0)),
    statItem('Context budget', h('span', { class: 'budget' }, `~${used}/${budget} tokens`, meter)),
  );
  for (const [kind, tab] of Object.entries(TABS)) {
    view.tabs[kind].querySelector('.count').textContent = `(${stats[tab.stat] ?? 0})`;
  }
}

async function refreshCharts(view, state) {
  const newest = ticket(state, 'charts');
  const data = await api('/api/v1/stats/charts');
  if (newest()) view.charts.replaceChildren(chartsCard(data));
}

// rows ------------------------------------------------------------------------------------
function actions(state, item, label) {
  const edit = h('button', { type: 'button', class: 'icon-btn', 'aria-label': `Edit: ${label}` }, icon('edit'));
  const remove = h('button', { type: 'button', class: 'icon-btn icon-danger', 'aria-label': `Delete: ${label}` },
    icon('trash'));
  edit.addEventListener('click', () => startEdit(state, item, edit.closest('li')));
  remove.addEventListener('click', guard(() => deleteItem(state, item)));
  return h('div', { class: 'item-actions' }, state.tab === 'summary' ? null : edit, remove);
}

function memoryMeta(item) {
  const parts = [`Source: ${item.source}`, `Confidence: ${percent(item.confidence)}`];
  if (item.kind === 'preference') parts.push(`Reinforced ${plural(item.reinforcement_count, 'time')}`);
  parts.push(formatDate(item.created_at));
  return h('p', { class: 'item-meta' }, parts.join('  |  '));
}

const SENSITIVE = 'Health, finances or identity details: kept only because you asked';

/** The badge on a personal-sensitive memory (stored only on an explicit request). */
function sensitiveBadge() {
  return h('span', { class: 'badge badge-sensitive', title: SENSITIVE }, icon('shield'), 'Sensitive',
    h('span', { class: 'visually-hidden' }, ` (${SENSITIVE.toLowerCase()})`));
}

function memoryRow(state, item) {
  const name = [item.category === 'global' ? null : item.category, item.key === 'default' ? null : item.key]
    .filter(Boolean).join(' ');
  const title = item.kind === 'preference' ? h('p', { class: 'item-title' }, humanize(name)) : null;
  return h('li', { class: `item${item.confidence < 0.5 ? ' item-dim' : ''}`, dataset: { id: item.id } },
    title,
    h('div', { class: 'item-main' }, dot(item.confidence),
      h('p', { class: 'item-text' }, item.text, item.sensitive ? [' ', sensitiveBadge()] : null),
      actions(state, item, item.text)),
    memoryMeta(item));
}

function summaryRow(state, item) {
  const topics = item.topics.length ? h('p', { class: 'item-meta' }, `Topics: ${item.topics.join(', ')}`) : null;
  return h('li', { class: 'item', dataset: { id: item.id } },
    h('div', { class: 'item-main' }, h('p', { class: 'item-title' }, formatDateTime(item.created_at)),
      actions(state, item, `summary of ${formatDateTime(item.created_at)}`)),
    h('p', { class: 'item-text' }, item.text), topics);
}

function detail(label, value) {
  return h('div', {}, h('dt', {}, label), h('dd', {}, value));
}

function startEdit(state, item, li) {
  const id = uid('edit');
  const text = h('textarea', { id, class: 'input', rows: 2, value: item.text });
  const cancel = h('button', { type: 'button', class: 'btn' }, 'Cancel');
  const save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save Changes');
  const form = h('form', { class: 'edit-form' },
    h('label', { class: 'label', for: id }, item.kind === 'preference' ? 'Preference text:' : 'Fact text:'), text,
    h('dl', { class: 'details' },
      detail('Source', item.source), detail('Confidence', percent(item.confidence)),
      detail('Created', formatDate(item.created_at)), detail('Last accessed', formatDate(item.last_accessed)),
      detail('Access count', String(item.access_count)),
      item.sensitive ? detail('Sensitive', 'yes, kept only because you asked') : null),
    h('div', { class: 'actions' }, cancel, save));
  const original = [...li.childNodes];
  const restore = () => { li.replaceChildren(...original); li.classList.remove('editing'); };
  cancel.addEventListener('click', () => { restore(); li.querySelector('.icon-btn').focus(); });
  form.addEventListener('keydown', (event) => { if (event.key === 'Escape') cancel.click(); });
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    await api(`/api/v1/memories/${item.id}`, { method: 'PATCH', body: { text: text.value } });
    notify('Saved.', 'ok');
    await state.refresh();
  }));
  li.classList.add('editing');
  li.replaceChildren(form);
  text.focus();
}

async function deleteItem(state, item) {
  const what = TABS[state.tab].one;
  const shown = state.tab === 'summary' ? formatDateTime(item.created_at) : item.text;
  const ok = await confirmDialog({ title: `Delete this ${what}?`,
    body: h('p', {}, h('q', {}, shown), ' will be deleted for good.') });
  if (!ok) return;
  const path = state.tab === 'summary' ? `/api/v1/summaries/${item.id}` : `/api/v1/memories/${item.id}`;
  await api(path, { method: 'DELETE' });
  notify(`Deleted the ${what}.`, 'ok');
  await state.refresh();
}

// loading ---------------------------------------------------------------------------------
function searching(state) {
  return Boolean(state.query || state.from || state.to);
}

async function fetchSearch(state) {
  const found = await api(`/api/v1/search${query({ q: state.query, date_from: state.from, date_to: state.to,
    limit: 100 })}`);
  const items = { fact: found.facts, preference: found.preferences, summary: found.summaries }[state.tab];
  return state.source && state.tab !== 'summary' ? items.filter((m) => m.source === state.source) : items;
}

async function fetchPage(state, offset, limit) {
  if (state.tab === 'summary') {
    const page = await api(`/api/v1/summaries${query({ limit, offset })}`);
    state.retentionDays = page.retention_days;
    return page.summaries;
  }
  const params = { kind: state.tab, source: state.source, order: state.order, limit, offset };
  return (await api(`/api/v1/memories${query(params)}`)).memories;
}

function emptyState(view, state) {
  const total = ['facts', 'preferences', 'summaries'].reduce((n, k) => n + (state.stats[k] ?? 0), 0);
  if (total === 0 && !searching(state)) {
    view.empty.replaceChildren(
      h('div', { class: 'empty-icon', 'aria-hidden': 'true' }, icon('file')),
      h('p', { class: 'empty-title' }, "Reverie hasn't learned anything about you yet."),
      h('p', {}, 'As you have conversations, Reverie will remember important facts and preferences to '
        + 'personalize your experience.'),
      h('p', {}, 'You can also tell Reverie to remember things: ', h('q', {}, "Remember that I'm allergic to "
        + 'shellfish'), ', or type it in the box above.'));
  } else {
    const what = TABS[state.tab].many;
    view.empty.replaceChildren(h('p', {}, searching(state) ? `No ${what} match your search.` : `No ${what} yet.`));
  }
}

function renderList(view, state) {
  const row = state.tab === 'summary' ? summaryRow : memoryRow;
  view.list.replaceChildren(...state.items.map((item) => row(state, item)));
  view.empty.hidden = state.items.length > 0;
  if (!state.items.length) emptyState(view, state);
  const tab = TABS[state.tab];
  const total = state.source ? null : state.stats[tab.stat];
  if (searching(state)) {
    view.showing.textContent = `Found ${plural(state.items.length, tab.one, tab.many)}`;
  } else if (state.items.length) {
    // DAWN's Summaries tab: "Showing 3 of 12 summaries (last 30 days)", the days nightly retention keeps.
    const kept = state.tab === 'summary' && state.retentionDays != null
      ? ` (last ${plural(state.retentionDays, 'day', 'days')})` : '';
    view.showing.textContent = (total === null ? `Showing ${plural(state.items.length, tab.one, tab.many)}`
      : `Showing ${state.items.length} of ${plural(total, tab.one, tab.many)}`) + kept;
  } else {
    view.showing.textContent = '';
  }
  view.more.hidden = searching(state) || !state.hasMore;
}

/** A ticket for one of several overlapping loads: only the newest may render. */
function ticket(state, name) {
  const mine = (state.tickets[name] || 0) + 1;
  state.tickets[name] = mine;
  return () => state.tickets[name] === mine;
}

async function loadList(view, state, { keep = false } = {}) {
  const newest = ticket(state, 'list');
  const limit = keep ? Math.max(PAGE_SIZE, state.items.length) : PAGE_SIZE;
  const items = searching(state) ? await fetchSearch(state) : await fetchPage(state, 0, limit);
  if (!newest()) return;
  state.items = items;
  state.hasMore = !searching(state) && items.length === limit;
  renderList(view, state);
}

async function loadMore(view, state) {
  const page = await fetchPage(state, state.items.length, PAGE_SIZE);
  state.items = state.items.concat(page);
  state.hasMore = page.length === PAGE_SIZE;
  renderList(view, state);
  const next = view.list.children[state.items.length - page.length];
  if (next) next.querySelector('button')?.focus();
}

// wiring ----------------------------------------------------------------------------------
function selectTab(view, state, kind) {
  state.tab = kind;
  for (const [name, button] of Object.entries(view.tabs)) {
    const on = name === kind;
    button.setAttribute('aria-selected', String(on));
    button.tabIndex = on ? 0 : -1;
  }
  view.panel.setAttribute('aria-labelledby', `tab-${kind}`);
  view.addForm.hidden = kind === 'summary';
  view.categoryField.hidden = kind !== 'preference';
  view.sensitiveField.hidden = kind === 'preference';
  view.addTextLabel.textContent = kind === 'preference' ? 'Preference' : 'Remember a fact';
  view.addText.placeholder = kind === 'preference' ? 'e.g. short answers' : "e.g. I'm allergic to shellfish";
}

function wireFilters(view, state, reload) {
  const fields = { source: '#filter-source', order: '#filter-order', from: '#filter-from', to: '#filter-to' };
  view.filterButton.addEventListener('click', () => {
    view.filters.hidden = !view.filters.hidden;
    view.filterButton.setAttribute('aria-expanded', String(!view.filters.hidden));
  });
  for (const [key, selector] of Object.entries(fields)) {
    view.filters.querySelector(selector).addEventListener('change', (event) => {
      state[key] = event.target.value;
      reload();
    });
  }
  view.filters.querySelector('#filter-clear').addEventListener('click', () => {
    for (const [key, selector] of Object.entries(fields)) {
      const input = view.filters.querySelector(selector);
      input.value = key === 'order' ? 'recent' : '';
      state[key] = input.value;
    }
    reload();
  });
}

function wireSearch(view, state, reload) {
  let timer = null;
  view.search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.query = view.search.value.trim();
      reload();
    }, 250);
  });
  return () => clearTimeout(timer);
}

async function saveNew(state, category, text, sensitive) {
  if (state.tab === 'preference') {
    await api(`/api/v1/preferences/${encodeURIComponent(category)}`, { method: 'PUT', body: { value: text } });
    return;
  }
  const result = await api('/api/v1/memories', { method: 'POST', body: { text, sensitive } });
  if (result.status !== 'stored') notify(`Already known: ${result.status}.`, 'info');
}

async function addMemory(view, state) {
  const text = view.addText.value.trim();
  const category = view.addCategory.value.trim();
  const sensitive = view.addSensitive.checked;
  if (!text) {
    view.addText.focus();
    return;
  }
  if (state.tab === 'preference' && !category) {
    notify('Give the preference a category, e.g. verbosity.', 'error');
    view.addCategory.focus();
    return;
  }
  // Cleared at once, so that what is typed next while this one saves is not lost.
  view.addText.value = '';
  view.addCategory.value = '';
  try {
    await saveNew(state, category, text, sensitive);
  } catch (err) {
    view.addText.value = text;
    view.addCategory.value = category;
    throw err;
  }
  view.addSensitive.checked = false;
  notify('Remembered.', 'ok');
  await state.refresh();
}

async function forgetEverything(state) {
  // Everything forget-all deletes is listed, chat history and topic files included, counted now:
  // the page's own figures may still be catching up with a fact remembered a moment ago.
  const [stats, conversations, topics] = await Promise.all([
    api('/api/v1/stats').catch(() => null),
    api('/api/v1/conversations?limit=1000').catch(() => null),
    api('/api/v1/topics').catch(() => null)]);
  const s = stats || state.stats;
  const many = (list, word, words) => (list ? plural(list.length, word, words) : `all your ${words}`);
  const body = h('div', {},
    h('p', {}, 'You are about to delete EVERYTHING Reverie keeps about you:'),
    h('ul', {}, h('li', {}, plural(s.facts ?? 0, 'fact')), h('li', {}, plural(s.preferences ?? 0, 'preference')),
      h('li', {}, plural(s.summaries ?? 0, 'conversation summary', 'conversation summaries')),
      h('li', {}, many(conversations, 'conversation', 'conversations'), ' with their chat history'),
      h('li', {}, many(topics && topics.topics, 'topic file', 'topic files'), ' and the recent-topics index'),
      h('li', {}, 'the base memory (what Reverie wrote about you)')),
    h('p', {}, 'Documents in the shared knowledge base stay. This action cannot be undone.'));
  const ok = await confirmDialog({ title: 'Warning', body, confirmLabel: 'Delete Everything',
    typeToConfirm: 'DELETE' });
  if (!ok) return;
  await api('/api/v1/forget-all', { method: 'POST', body: { confirm: 'DELETE' } });
  notify('Everything was forgotten.', 'ok');
  await state.refresh();
}

/** Render the My Memory page into `container`; returns a cleanup function. */
export async function memoryPage(container) {
  const view = buildLayout(container);
  const state = { tab: 'fact', items: [], hasMore: false, query: '', source: '', order: 'recent',
    from: '', to: '', stats: {}, tickets: {} };
  const reload = guard(() => loadList(view, state));
  state.refresh = async () => {
    const newest = ticket(state, 'stats');
    const stats = await api('/api/v1/stats');
    if (newest()) {
      state.stats = stats;
      renderStats(view, stats);
    }
    await Promise.all([loadList(view, state, { keep: true }), refreshCharts(view, state)]);
  };
  for (const [kind, button] of Object.entries(view.tabs)) {
    button.addEventListener('click', () => {
      selectTab(view, state, kind);
      reload();
    });
  }
  wireFilters(view, state, reload);
  const stopSearch = wireSearch(view, state, reload);
  view.more.addEventListener('click', guard(() => loadMore(view, state)));
  view.addForm.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    await addMemory(view, state);
  }));
  view.forget.addEventListener('click', guard(() => forgetEverything(state)));
  selectTab(view, state, 'fact');
  await state.refresh();
  return stopSearch;
}
