// Settings: decay, embeddings, extraction and threads (admin), API tokens and the password (everyone).

import { api, ApiError } from './api.js';
import {
  h, icon, guard, notify, confirmDialog, errorText, formatDate, timeAgo, percent, plural, uid,
} from './dom.js';

const LABELS = {
  'memory.decay.enabled': ['Nightly decay and pruning', 'Confidence fades for memories that are not used.'],
  'memory.decay.hour': ['Run at hour', '0–23, local time.'],
  'memory.decay.inferred_weekly': ['Inferred facts kept per week', '0.95 means 5% decay a week.'],
  'memory.decay.explicit_weekly': ['Explicit facts kept per week', 'Facts you stated yourself.'],
  'memory.decay.preference_weekly': ['Preferences kept per week', ''],
  'memory.decay.inferred_floor': ['Inferred facts never below', 'Confidence floor, 0–1.'],
  'memory.decay.explicit_floor': ['Explicit facts never below', 'Confidence floor, 0–1.'],
  'memory.decay.preference_floor': ['Preferences never below', 'Confidence floor, 0–1.'],
  'memory.decay.prune_threshold': ['Forget facts below', 'Facts under this confidence are deleted.'],
  'memory.decay.prune_superseded_days': ['Keep replaced facts for (days)', ''],
  'memory.decay.summary_retention_days': ['Keep summaries for (days)', ''],
  'memory.decay.transcript_retention_days': ['Keep conversation transcripts for (days)',
    'Once a conversation is consolidated; 0 keeps none.'],
  'memory.decay.audit_retention_days': ['Keep the audit trail for (days)', ''],
  'memory.decay.access_reinforcement_boost': ['Boost when a fact is used', 'Added to its confidence, 0–1.'],
  'embeddings.provider': ['Provider', 'local runs on this machine; the others call a server.'],
  'embeddings.model': ['Model', ''],
  'embeddings.endpoint': ['Endpoint', 'Empty: the provider’s default address.'],
  'embeddings.cache.enabled': ['Embedding cache',
    'Keep the vectors of texts already embedded, so the same text is not embedded twice.'],
  'embeddings.hybrid.enabled': ['Hybrid search', 'Combine keywords and meaning.'],
  'embeddings.hybrid.fusion': ['Fusion', 'weighted scores, or reciprocal rank fusion (rrf).'],
  'embeddings.hybrid.min_similarity': ['Minimum similarity', 'Vector matches below this are ignored.'],
  'llm.provider': ['Provider', 'none: no chat; ollama, openai_compatible (llama.cpp, vLLM, LM Studio), openai…'],
  'llm.model': ['Model', 'e.g. llama3.2 for Ollama.'],
  'llm.endpoint': ['Endpoint', 'Empty: the provider’s default address (Ollama: http://127.0.0.1:11434).'],
  'memory.extraction.provider': ['Provider', 'Empty: the conversation model under [llm] (rules when it has none); none: rules only, no model.'],
  'memory.extraction.model': ['Model', 'Empty: the conversation model under [llm].'],
  'memory.extraction.endpoint': ['Endpoint', 'Empty: the [llm] endpoint or the provider’s default.'],
  'memory.extraction.auto_extract': ['Extract after every exchange', 'Otherwise when a conversation ends.'],
};
const WEIGHTS = ['embeddings.hybrid.keyword_weight', 'embeddings.hybrid.vector_weight'];

// validation ------------------------------------------------------------------------------
function numberProblem(field, raw) {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) return 'Enter a number.';
  if (field.type === 'integer' && !Number.isInteger(value)) return 'Enter a whole number.';
  if (field.minimum !== null && value < field.minimum) return `Must be at least ${field.minimum}.`;
  if (field.maximum !== null && value > field.maximum) return `Must be at most ${field.maximum}.`;
  if (field.exclusive_minimum !== null && value <= field.exclusive_minimum) {
    return `Must be more than ${field.exclusive_minimum}.`;
  }
  return null;
}

/** What is wrong with a raw form value for a field, or null (limits come from the server). */
export function problemWith(field, raw) {
  if (field.type === 'boolean') return null;
  if (field.choices) return field.choices.includes(raw) ? null : `Choose one of ${field.choices.join(', ')}.`;
  if (field.type === 'string') return null;
  return numberProblem(field, raw);
}

function parse(field, raw) {
  if (field.type === 'boolean') return raw;
  if (field.type === 'integer' || field.type === 'number') return Number(raw);
  return raw;
}

// fields ----------------------------------------------------------------------------------
function control(field, value, id) {
  if (field.type === 'boolean') return h('input', { id, type: 'checkbox', checked: Boolean(value) });
  if (field.choices) {
    return h('select', { id, class: 'input' },
      field.choices.map((choice) => h('option', { value: choice, selected: choice === value }, choice || '(as [llm])')));
  }
  const numeric = field.type === 'integer' || field.type === 'number';
  return h('input', { id, class: 'input', type: numeric ? 'number' : 'text', step: numeric ? 'any' : null,
    value: value ?? '', autocomplete: 'off', spellcheck: 'false' });
}

function fieldRow(field, value, inputs) {
  const id = uid('setting');
  const [label, hint] = LABELS[field.key] || [field.key, ''];
  const input = control(field, value, id);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  input.setAttribute('aria-describedby', `${hintId} ${errorId}`);
  input.dataset.key = field.key;
  inputs[field.key] = input;
  const note = field.live ? '' : ' Needs a restart.';
  const labelNode = h('label', { class: 'label', for: id }, label);
  const parts = field.type === 'boolean'
    ? [h('div', { class: 'check' }, input, labelNode)]
    : [labelNode, input];
  return h('div', { class: 'field setting', dataset: { key: field.key } }, ...parts,
    h('p', { class: 'hint', id: hintId }, `${hint}${note}`.trim()),
    h('p', { class: 'field-error', id: errorId }));
}

function weightRow(values, inputs) {
  const keyword = Math.round((values[WEIGHTS[0]] ?? 0.3) * 100);
  const output = h('output', { for: 'weight-keyword', class: 'weights-out' });
  const slider = h('input', { id: 'weight-keyword', type: 'range', min: 0, max: 100, step: 5, value: keyword,
    'aria-describedby': 'weight-hint' });
  const show = () => { output.textContent = `Keyword ${slider.value}%  ·  Vector ${100 - slider.value}%`; };
  slider.addEventListener('input', show);
  show();
  inputs.weights = slider;
  return h('div', { class: 'field setting', dataset: { key: WEIGHTS[0] } },
    h('label', { class: 'label', for: 'weight-keyword' }, 'Weights'), slider, output,
    h('p', { class: 'hint', id: 'weight-hint' }, 'How much keywords count against meaning.'),
    h('p', { class: 'field-error' }));
}

function showErrors(form, problems) {
  for (const row of form.querySelectorAll('.setting')) {
    const message = problems[row.dataset.key] || '';
    row.querySelector('.field-error').textContent = message;
    const input = row.querySelector('[data-key]');
    if (input) input.setAttribute('aria-invalid', String(Boolean(message)));
  }
  const first = form.querySelector('[aria-invalid="true"]');
  if (first) first.focus();
}

// one settings card -----------------------------------------------------------------------
function collect(inputs, fields, keys) {
  const values = {};
  const problems = {};
  for (const key of keys) {
    const input = inputs[key];
    const raw = input.type === 'checkbox' ? input.checked : input.value;
    const problem = problemWith(fields[key], raw);
    if (problem) problems[key] = problem;
    else values[key] = parse(fields[key], raw);
  }
  if (inputs.weights) {
    const keyword = Number(inputs.weights.value) / 100;
    values[WEIGHTS[0]] = keyword;
    values[WEIGHTS[1]] = Math.round((1 - keyword) * 100) / 100;
  }
  return { values, problems };
}

function changes(values, saved) {
  return Object.fromEntries(Object.entries(values).filter(([key, value]) => saved[key] !== value));
}

function resultText(answer) {
  const restart = answer.changed.filter((key) => !answer.applied.includes(key));
  const parts = [`Saved to ${answer.config_path}.`];
  if (answer.applied.length) parts.push('Applied now.');
  if (restart.length) parts.push(`Restart Reverie to apply: ${restart.join(', ')}.`);
  return parts.concat(answer.warnings).join(' ');
}

function settingsCard(title, keys, data, extra) {
  const inputs = {};
  const fields = Object.fromEntries(data.fields.map((f) => [f.key, f]));
  const status = h('p', { class: 'form-status', role: 'status' });
  const rows = keys.filter((key) => !WEIGHTS.includes(key)).map((key) => fieldRow(fields[key], data.values[key],
    inputs));
  if (keys.includes(WEIGHTS[0])) rows.splice(rows.length - 1, 0, weightRow(data.values, inputs));
  const form = h('form', { class: 'card settings-card', novalidate: true },
    h('h2', {}, title), h('div', { class: 'grid' }, ...rows), extra,
    h('div', { class: 'actions' }, status, h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save')));
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    const { values, problems } = collect(inputs, fields, keys.filter((key) => !WEIGHTS.includes(key)));
    showErrors(form, problems);
    if (Object.keys(problems).length) {
      status.textContent = 'Please fix the marked fields.';
      return;
    }
    await save(form, status, changes(values, data.values), data);
  }));
  return form;
}

async function save(form, status, changed, data) {
  if (!Object.keys(changed).length) {
    status.textContent = 'Nothing changed.';
    return;
  }
  try {
    const answer = await api('/api/v1/settings', { method: 'PUT', body: changed });
    Object.assign(data.values, answer.values);
    status.textContent = resultText(answer);
    notify('Settings saved.', 'ok');
  } catch (err) {
    if (err instanceof ApiError && Object.keys(err.fields).length) showErrors(form, err.fields);
    status.textContent = errorText(err);
  }
}

function cacheText(stats) {
  if (!stats.embedding_model) return 'Embeddings are off.';
  const rate = stats.embedding_cache_hit_rate === null ? '—' : percent(stats.embedding_cache_hit_rate);
  return `Model in use: ${stats.embedding_model}.  Cache: ${stats.embedding_cache_entries} entries, hit rate ${rate}.`;
}

function cacheInfo(stats) {
  const info = h('p', { class: 'muted cache-info', role: 'status' }, cacheText(stats));
  const clear = h('button', { type: 'button', class: 'btn' }, 'Clear cache');
  clear.addEventListener('click', guard(async () => {
    const ok = await confirmDialog({ title: 'Clear the embedding cache?', confirmLabel: 'Clear cache',
      body: h('p', {}, 'Cached vectors are dropped; texts are embedded again when next needed. '
        + 'Memories and documents keep their vectors.') });
    if (!ok) return;
    const answer = await api('/api/v1/embeddings/cache', { method: 'DELETE' });
    info.textContent = cacheText(await api('/api/v1/stats'));
    notify(`Cleared the cache: ${plural(answer.removed, 'vector')} dropped.`, 'ok');
  }));
  return h('div', { class: 'cache-actions' }, info, clear);
}

// The model field: a list read from the provider when it answers, free text otherwise.
function modelPicker(form, prefix) {
  const row = form.querySelector(`.setting[data-key="${prefix}.model"]`);
  const text = row.querySelector('input');
  const label = row.querySelector('label');
  const hint = row.querySelector('.hint');
  const list = h('select', { id: `${text.id}-list`, class: 'input', hidden: true,
    'aria-describedby': text.getAttribute('aria-describedby') });
  list.addEventListener('change', () => { text.value = list.value; });
  text.after(list);
  const value = (key) => form.querySelector(`.input[data-key="${prefix}.${key}"]`).value;
  const useText = (why) => {
    list.hidden = true;
    text.hidden = false;
    label.htmlFor = text.id;
    hint.textContent = why;
  };
  const refresh = async () => {
    const query = new URLSearchParams({ provider: value('provider'), endpoint: value('endpoint') });
    let answer;
    try {
      answer = await api(`/api/v1/embeddings/models?${query}`);
    } catch (err) {
      useText(`Type the model's name (${errorText(err)}).`);
      return;
    }
    if (!answer.models || !answer.models.length) {
      useText(answer.models ? 'The provider has no models yet: type the name of one to pull.'
        : `Type the model's name. ${answer.detail}`);
      return;
    }
    const names = answer.models.includes(text.value) || !text.value ? answer.models
      : [text.value, ...answer.models];
    list.replaceChildren(...names.map((name) => h('option', { value: name, selected: name === text.value },
      answer.models.includes(name) ? name : `${name} (not on the server)`)));
    text.value = list.value;
    list.hidden = false;
    text.hidden = true;
    label.htmlFor = list.id;
    hint.textContent = `Models on the ${answer.provider} server.`;
  };
  for (const key of ['provider', 'endpoint']) {
    form.querySelector(`.input[data-key="${prefix}.${key}"]`).addEventListener('change', guard(refresh));
  }
  return refresh;
}

const DECAY_KEYS = (data) => data.fields.map((f) => f.key).filter((k) => k.startsWith('memory.decay.'));
const EMBEDDING_KEYS = ['embeddings.provider', 'embeddings.model', 'embeddings.endpoint',
  'embeddings.cache.enabled', 'embeddings.hybrid.enabled', 'embeddings.hybrid.fusion', ...WEIGHTS, 'embeddings.hybrid.min_similarity'];
const EXTRACTION_KEYS = ['memory.extraction.provider', 'memory.extraction.model', 'memory.extraction.endpoint',
  'memory.extraction.auto_extract'];

const LLM_KEYS = ['llm.provider', 'llm.model', 'llm.endpoint'];

function llmTest(form) {
  const result = h('p', { class: 'form-status llm-test-result', role: 'status' });
  const button = h('button', { type: 'button', class: 'btn' }, 'Test connection');
  button.addEventListener('click', guard(async () => {
    const value = (key) => form().querySelector(`.input[data-key="${key}"]`).value;
    button.disabled = true;
    result.textContent = 'Asking the model…';
    try {
      const answer = await api('/api/v1/llm/test', { method: 'POST', body: {
        provider: value('llm.provider'), model: value('llm.model'), endpoint: value('llm.endpoint') } });
      result.textContent = answer.ok ? `It answers (${answer.model}, ${answer.milliseconds} ms): ${answer.detail}`
        : `No answer: ${answer.detail}`;
    } finally {
      button.disabled = false;
    }
  }));
  return h('div', { class: 'llm-test' }, button, result);
}

async function serverSettings() {
  const [data, stats] = await Promise.all([api('/api/v1/settings'), api('/api/v1/stats')]);
  let llmForm = null;
  llmForm = settingsCard('Chat model (LLM)', LLM_KEYS, data, llmTest(() => llmForm));
  llmForm.id = 'llm-settings';
  const embeddings = settingsCard('Embeddings', EMBEDDING_KEYS, data, cacheInfo(stats));
  embeddings.id = 'embedding-settings';
  await modelPicker(embeddings, 'embeddings')();
  return h('div', { class: 'settings-cards' },
    llmForm,
    settingsCard('Memory decay', DECAY_KEYS(data), data),
    embeddings,
    settingsCard('Extraction', EXTRACTION_KEYS, data),
    data.restart_required.length ? h('p', { class: 'notice' },
      `Saved but waiting for a restart: ${data.restart_required.join(', ')}.`) : null);
}

// tokens ----------------------------------------------------------------------------------
function tokenRow(token, refresh) {
  const revoke = token.revoked ? h('span', { class: 'badge' }, 'Revoked')
    : h('button', { type: 'button', class: 'btn btn-small btn-danger', 'aria-label': `Revoke ${token.name}`,
      on: { click: guard(async () => {
        const ok = await confirmDialog({ title: 'Revoke this token?', confirmLabel: 'Revoke',
          body: h('p', {}, h('q', {}, token.name), ' stops working at once.') });
        if (!ok) return;
        await api(`/api/v1/tokens/${token.id}`, { method: 'DELETE' });
        notify(`Revoked ${token.name}.`, 'ok');
        await refresh();
      }) } }, 'Revoke');
  return h('li', { class: `item token${token.revoked ? ' item-dim' : ''}`, dataset: { id: token.id } },
    h('div', { class: 'item-main' }, h('p', { class: 'item-text' }, token.name, ' ',
      h('code', {}, `${token.prefix}…`)), revoke),
    h('p', { class: 'item-meta' }, `Created ${formatDate(token.created_at)}  |  Last used ${
      timeAgo(token.last_used_at)}${token.interface ? `  |  Device: ${token.interface}` : ''}`));
}

function secretBox(secret) {
  const field = h('input', { class: 'input mono', readonly: true, value: secret, 'aria-label': 'New token' });
  const copy = h('button', { type: 'button', class: 'btn' }, 'Copy');
  copy.addEventListener('click', guard(async () => {
    field.select();
    await navigator.clipboard.writeText(secret);
    notify('Copied.', 'ok');
  }));
  return h('div', { class: 'secret', role: 'alert' },
    h('p', {}, h('strong', {}, 'Copy this token now: '), 'it will not be shown again.'),
    h('div', { class: 'secret-row' }, field, copy));
}

function tokensCard() {
  const list = h('ul', { class: 'items tokens' });
  const secret = h('div');
  const name = h('input', { id: 'token-name', class: 'input', autocomplete: 'off', maxlength: 100,
    placeholder: 'e.g. kitchen assistant' });
  const refresh = async () => {
    const { tokens } = await api('/api/v1/tokens');
    list.replaceChildren(...tokens.map((t) => tokenRow(t, refresh)));
    if (!tokens.length) list.append(h('li', { class: 'item muted' }, 'No tokens yet.'));
  };
  const form = h('form', { class: 'inline-form' },
    h('div', { class: 'field grow' }, h('label', { class: 'label', for: 'token-name' }, 'Token name'), name),
    h('button', { type: 'submit', class: 'btn btn-primary' }, 'Create token'));
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    if (!name.value.trim()) {
      name.focus();
      return;
    }
    const created = await api('/api/v1/tokens', { method: 'POST', body: { name: name.value.trim() } });
    name.value = '';
    secret.replaceChildren(secretBox(created.token));
    await refresh();
  }));
  const card = h('section', { class: 'card', 'aria-labelledby': 'tokens-title' },
    h('h2', { id: 'tokens-title' }, 'API tokens'),
    h('p', { class: 'muted' }, 'Assistants and scripts use a token (Authorization: Bearer …) to reach your memory.'),
    form, secret, list);
  return { card, refresh };
}

// threads (admin) -------------------------------------------------------------------------
function mergeResult(answer) {
  const moved = `Moved ${plural(answer.moved, 'memory', 'memories')} from ${answer.thread} to ${answer.user}`;
  if (!answer.superseded) return `${moved}.`;
  return `${moved}; ${plural(answer.superseded, 'older duplicate')} superseded.`;
}

function threadRow(thread, users, refresh, status) {
  const id = uid('merge');
  const choose = h('select', { id, class: 'input' }, h('option', { value: '' }, 'Merge into…'),
    users.map((user) => h('option', { value: user.name },
      user.display_name && user.display_name !== user.name ? `${user.display_name} (${user.name})` : user.name)));
  const merge = h('button', { type: 'submit', class: 'btn btn-small' }, icon('merge'), 'Merge');
  const form = h('form', { class: 'merge-form' },
    h('label', { class: 'visually-hidden', for: id }, `Merge ${thread.label || thread.name} into`), choose, merge);
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    if (!choose.value) {
      choose.focus();
      notify('Choose the person this thread belongs to.', 'error');
      return;
    }
    const who = choose.value;
    const ok = await confirmDialog({ title: `Merge into ${who}?`, confirmLabel: 'Merge', danger: false,
      body: h('p', {}, `The ${plural(thread.memories, 'memory', 'memories')} of `,
        h('q', {}, thread.label || thread.name), ` become ${who}'s. Where ${who} already has the same or a `
        + 'near-duplicate memory, the newest stays and the other is kept as superseded. The thread then ends.') });
    if (!ok) return;
    merge.disabled = true;
    try {
      const answer = await api(`/api/v1/threads/${encodeURIComponent(thread.name)}/merge`, { method: 'POST',
        body: { user: who } });
      status.textContent = mergeResult(answer);
      notify(mergeResult(answer), 'ok');
      await refresh();
    } finally {
      merge.disabled = false;
    }
  }));
  return h('li', { class: 'item thread', dataset: { name: thread.name } },
    h('div', { class: 'item-main thread-main' },
      h('div', { class: 'item-text' }, h('p', { class: 'thread-label' }, thread.label || 'Unlabelled thread'),
        h('p', { class: 'item-meta thread-meta' }, h('code', {}, thread.name), `  |  ${
          plural(thread.memories, 'memory', 'memories')}  |  started ${timeAgo(thread.created_at)}`)),
      form));
}

function threadsCard() {
  const list = h('ul', { class: 'items threads' });
  const status = h('p', { class: 'form-status', role: 'status' });
  const refresh = async () => {
    const [threads, { users }] = await Promise.all([api('/api/v1/threads'), api('/api/v1/users')]);
    list.replaceChildren(...threads.map((t) => threadRow(t, users, refresh, status)));
    if (!threads.length) list.append(h('li', { class: 'item muted' }, 'No threads are waiting to be merged.'));
  };
  const card = h('section', { class: 'card', 'aria-labelledby': 'threads-title' },
    h('h2', { id: 'threads-title' }, 'Threads'),
    h('p', { class: 'muted' }, 'Memories from conversations whose person is not known yet, such as a voice '
      + 'device no one is mapped to. They are used only inside their thread until you merge it into the '
      + 'person it belongs to.'),
    status, list);
  return { card, refresh };
}

// password --------------------------------------------------------------------------------
function passwordCard() {
  const current = h('input', { id: 'pw-current', class: 'input', type: 'password', autocomplete: 'current-password' });
  const next = h('input', { id: 'pw-new', class: 'input', type: 'password', autocomplete: 'new-password',
    minlength: 8 });
  const status = h('p', { class: 'form-status', role: 'status' });
  const form = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'pw-title' },
    h('h2', { id: 'pw-title' }, 'Password'),
    h('div', { class: 'grid' },
      h('div', { class: 'field' }, h('label', { class: 'label', for: 'pw-current' }, 'Current password'), current),
      h('div', { class: 'field' }, h('label', { class: 'label', for: 'pw-new' }, 'New password (8 or more)'), next)),
    h('div', { class: 'actions' }, status, h('button', { type: 'submit', class: 'btn' }, 'Change password')));
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    if (!current.value || next.value.length < 8) {
      status.textContent = 'Enter your current password and a new one of 8 characters or more.';
      return;
    }
    await api('/api/v1/auth/password', { method: 'POST',
      body: { current_password: current.value, new_password: next.value } });
    window.dispatchEvent(new CustomEvent('reverie:signed-out'));
  }));
  return form;
}

/** Render the Settings page. */
export async function settingsPage(container, { user }) {
  const tokens = tokensCard();
  // Admin routes are never called for others: the browser would log their 403s.
  const threads = user.is_admin ? threadsCard() : null;
  const server = user.is_admin ? await serverSettings()
    : h('p', { class: 'card muted' }, 'Only an admin can change how Reverie decays, searches and extracts.');
  container.append(h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'Settings')),
    ...[server, threads?.card, tokens.card, passwordCard()].filter(Boolean));
  await Promise.all([tokens.refresh(), threads?.refresh()]);
}
