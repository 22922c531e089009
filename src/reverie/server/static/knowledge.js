// Knowledge Base: the household's documents and the user's own uploads, their chunks and status;
// uploads within the user's quota; scans with live progress.

import { api, headersFor, readAnswer } from './api.js';
import { h, icon, guard, notify, confirmDialog, formatDate, timeAgo, plural } from './dom.js';

const POLL_MS = 400;

function buildLayout(container, isAdmin) {
  const view = {};
  view.stats = h('dl', { class: 'stats card', 'aria-label': 'Knowledge base statistics' });
  view.progress = h('div', { class: 'scan-progress card', hidden: true });
  view.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  view.list = h('ul', { class: 'items docs' });
  view.scan = h('button', { type: 'button', class: 'btn btn-primary' }, icon('search'), 'Scan for New Files');
  view.reindexAll = h('button', { type: 'button', class: 'btn' }, icon('refresh'), 'Re-index All');
  view.help = h('div', { class: 'muted kb-help' });
  view.query = h('input', { id: 'kb-search', class: 'input', type: 'search', autocomplete: 'off',
    placeholder: 'What do your documents say about…' });
  view.results = h('ul', { class: 'items kb-results', 'aria-label': 'Search results' });
  view.searchForm = h('form', { class: 'inline-form', role: 'search' },
    h('div', { class: 'field grow' }, h('label', { class: 'label', for: 'kb-search' }, 'Search documents'),
      view.query),
    h('button', { type: 'submit', class: 'btn' }, icon('search'), 'Search'));
  view.file = h('input', { id: 'kb-upload', class: 'input', type: 'file', accept: '.txt,.md,.pdf,.docx' });
  view.quota = h('p', { class: 'muted kb-quota' });
  view.uploadForm = h('form', { class: 'inline-form kb-upload' },
    h('div', { class: 'field grow' }, h('label', { class: 'label', for: 'kb-upload' },
      'Upload a document (yours alone to search)'), view.file),
    h('button', { type: 'submit', class: 'btn' }, icon('plus'), 'Upload'));
  view.folder = h('input', { id: 'kb-folder', class: 'input mono', autocomplete: 'off', spellcheck: 'false' });
  view.folderForm = isAdmin ? h('form', { class: 'inline-form kb-folder' },
    h('div', { class: 'field grow' }, h('label', { class: 'label', for: 'kb-folder' },
      'Documents folder (shared by every user)'), view.folder),
    h('button', { type: 'submit', class: 'btn' }, 'Save folder')) : null;
  container.append(
    h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'Knowledge Base')),
    h('section', { class: 'card', 'aria-label': 'Search' }, view.searchForm, view.results),
    view.stats, view.progress, view.live,
    h('section', { class: 'card', 'aria-label': 'Upload' }, view.uploadForm, view.quota),
    h('section', { class: 'card', 'aria-label': 'Documents' }, view.list,
      isAdmin ? h('div', { class: 'actions split' }, view.scan, view.reindexAll)
        : h('p', { class: 'muted' }, 'Only an admin can scan or re-index documents.')),
    view.folderForm ? h('section', { class: 'card', 'aria-label': 'Folder' }, view.folderForm) : null,
    view.help);
  return view;
}

function statItem(label, value) {
  return h('div', { class: 'stat' }, h('dt', {}, label), h('dd', {}, value));
}

async function searchDocs(view) {
  const q = view.query.value.trim();
  if (!q) {
    view.results.replaceChildren();
    return;
  }
  const found = await api(`/api/v1/documents/search?q=${encodeURIComponent(q)}`);
  view.results.replaceChildren(...found.results.map((hit) => h('li', { class: 'item kb-hit' },
    h('p', { class: 'item-text' }, hit.text),
    h('p', { class: 'item-meta' }, hit.location ? `${hit.file_name}, ${hit.location}` : hit.file_name))));
  if (!found.results.length) view.results.append(h('li', { class: 'item muted' }, `Nothing found for “${q}”.`));
}

function renderStatus(view, status) {
  if (view.folder && document.activeElement !== view.folder) view.folder.value = status.directory;
  view.stats.replaceChildren(
    statItem('Documents', String(status.documents)),
    statItem('Chunks', String(status.chunks)),
    statItem('Last indexed', status.last_indexed ? timeAgo(status.last_indexed) : 'never'));
  view.quota.textContent = `Your documents use ${megabytes(status.used_bytes)} of ${megabytes(status.quota_bytes)}.`;
  view.help.replaceChildren(
    h('p', {}, 'To add documents, place files in: ', h('code', {}, status.directory)),
    h('p', {}, 'Supported formats: .txt, .md, .pdf, .docx'));
}

function renderProgress(view, scan) {
  const running = scan.state === 'running';
  view.progress.hidden = !running;
  view.scan.disabled = running;
  view.reindexAll.disabled = running;
  if (!running) return;
  const files = scan.files_total ? ` (${scan.files_done} of ${plural(scan.files_total, 'file')}), `
    + `${plural(scan.chunks_indexed, 'chunk')} so far` : '';
  const label = `Indexing… ${scan.percent}%${files}${scan.current ? ` — ${scan.current}` : ''}`;
  view.progress.replaceChildren(
    h('p', { class: 'progress-label', id: 'scan-label' }, label),
    h('progress', { max: 100, value: scan.percent, 'aria-labelledby': 'scan-label' }));
  announce(view, scan.percent);
}

function announce(view, percentDone) {
  // Spoken in steps of a quarter, so a screen reader is not flooded by every poll.
  const step = Math.floor(percentDone / 25) * 25;
  if (view.announced === step) return;
  view.announced = step;
  view.live.textContent = `Indexing: ${step}% done`;
}

function scanSummary(scan) {
  if (scan.state === 'failed') return `The scan failed: ${scan.error}`;
  const parts = [`${scan.indexed} indexed`, `${scan.unchanged} unchanged`, `${scan.skipped} skipped`];
  if (scan.removed) parts.push(`${scan.removed} removed`);
  return `Scan done: ${parts.join(', ')}.`;
}

function megabytes(bytes) {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function uploadFile(file) {
  const response = await fetch(`/api/v1/documents/upload?name=${encodeURIComponent(file.name)}`, {
    method: 'POST', credentials: 'same-origin', body: file,
    headers: headersFor('POST', { 'Content-Type': 'application/octet-stream' }),
  });
  return readAnswer(response);
}

const TYPE_ICON_CLASS = { pdf: 'doc-pdf', docx: 'doc-docx', md: 'doc-md', txt: 'doc-txt' };

function statusText(doc) {
  if (doc.status === 'indexed') return `Indexed: ${formatDate(doc.indexed_at)}`;
  if (doc.status === 'skipped') return `Skipped: ${doc.reason || 'no reason given'}`;
  if (doc.status === 'excluded') return 'Removed from the index (re-index to bring it back)';
  return 'Pending';
}

function docRow(doc, isAdmin, onChange) {
  const own = !doc.shared;
  const actions = own ? h('div', { class: 'item-actions' },
    h('button', { type: 'button', class: 'icon-btn icon-danger', 'aria-label': `Delete ${doc.file_name}`,
      on: { click: guard(() => deleteOwn(doc, onChange)) } }, icon('trash')))
    : isAdmin ? h('div', { class: 'item-actions' },
    h('button', { type: 'button', class: 'icon-btn', 'aria-label': `Re-index ${doc.file_name}`,
      on: { click: guard(() => reindexOne(doc, onChange)) } }, icon('refresh')),
    doc.status === 'excluded' ? null : h('button', { type: 'button', class: 'icon-btn icon-danger',
      'aria-label': `Remove ${doc.file_name} from the index`, on: { click: guard(() => removeOne(doc, onChange)) } },
    icon('trash'))) : null;
  const chunks = doc.status === 'indexed' ? plural(doc.chunks, 'chunk') : `(${doc.status})`;
  return h('li', { class: `item doc doc-${doc.status}`, dataset: { id: doc.id } },
    h('div', { class: 'item-main' },
      h('span', { class: `doc-icon ${TYPE_ICON_CLASS[doc.file_type] || ''}`, 'aria-hidden': 'true' }, icon('file')),
      h('p', { class: 'item-text doc-name' }, doc.file_name, ' ',
        h('span', { class: 'muted doc-owner' }, own ? '(mine)' : '(shared)')),
      h('span', { class: 'doc-chunks' }, chunks), actions),
    h('p', { class: 'item-meta' }, statusText(doc)));
}

async function reindexOne(doc, onChange) {
  await api(`/api/v1/documents/${doc.id}/reindex`, { method: 'POST' });
  notify(`Re-indexed ${doc.file_name}.`, 'ok');
  await onChange();
}

async function deleteOwn(doc, onChange) {
  const ok = await confirmDialog({ title: 'Delete your document?',
    body: h('p', {}, h('q', {}, doc.file_name), ' and its index are deleted.'), confirmLabel: 'Delete' });
  if (!ok) return;
  await api(`/api/v1/documents/${doc.id}`, { method: 'DELETE' });
  notify(`Deleted ${doc.file_name}.`, 'ok');
  await onChange();
}

async function removeOne(doc, onChange) {
  const ok = await confirmDialog({ title: 'Remove this document?',
    body: h('p', {}, h('q', {}, doc.file_name), ' leaves the index; the file stays on disk.'),
    confirmLabel: 'Remove' });
  if (!ok) return;
  await api(`/api/v1/documents/${doc.id}`, { method: 'DELETE' });
  notify(`Removed ${doc.file_name} from the index.`, 'ok');
  await onChange();
}

function renderDocs(view, documents, isAdmin, onChange) {
  view.list.replaceChildren(...documents.map((doc) => docRow(doc, isAdmin, onChange)));
  if (!documents.length) {
    view.list.append(h('li', { class: 'empty' }, h('p', {}, 'No documents yet.')));
  }
}

/** Render the Knowledge Base page; returns a cleanup function that stops polling. */
export async function knowledgePage(container, { user }) {
  const view = buildLayout(container, user.is_admin);
  let timer = null;
  let stopped = false;
  let shown = -1;
  const loadDocs = async () => {
    const listing = await api('/api/v1/documents');
    shown = listing.documents.length;
    renderDocs(view, listing.documents, user.is_admin, refresh);
  };
  const refresh = async () => {
    const [status] = await Promise.all([api('/api/v1/documents/status'), loadDocs()]);
    renderStatus(view, status);
    renderProgress(view, status.scan);
    return status.scan;
  };
  const poll = guard(async () => {
    if (stopped) return;
    const status = await api('/api/v1/documents/status');
    renderStatus(view, status);
    renderProgress(view, status.scan);
    if (status.scan.state === 'running') {
      if (status.documents !== shown) await loadDocs(); // files appear as they are indexed
      timer = setTimeout(poll, POLL_MS);
      return;
    }
    timer = null;
    await refresh();
    view.announced = null;
    notify(scanSummary(status.scan), status.scan.state === 'failed' ? 'error' : 'ok');
  });
  const startScan = (force) => guard(async () => {
    const scan = await api('/api/v1/documents/scan', { method: 'POST', body: { force } });
    renderProgress(view, scan);
    if (!timer) timer = setTimeout(poll, POLL_MS);
  });
  view.searchForm.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    await searchDocs(view);
  }));
  view.uploadForm.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    const file = view.file.files[0];
    if (!file) {
      notify('Choose a file to upload first.', 'error');
      return;
    }
    const doc = await uploadFile(file);
    view.file.value = '';
    notify(doc.status === 'indexed' ? `Uploaded ${doc.file_name}: ${plural(doc.chunks, 'chunk')}.`
      : `Uploaded ${doc.file_name}, not indexed: ${doc.reason}`, doc.status === 'indexed' ? 'ok' : 'error');
    await refresh();
  }));
  if (view.folderForm) {
    view.folderForm.addEventListener('submit', guard(async (event) => {
      event.preventDefault();
      await api('/api/v1/settings', { method: 'PUT', body: { 'rag.documents_dir': view.folder.value.trim() } });
      notify('Folder saved. Scan for new files to index it.', 'ok');
      await refresh();
    }));
  }
  view.scan.addEventListener('click', startScan(false));
  view.reindexAll.addEventListener('click', startScan(true));
  const scan = await refresh();
  if (scan.state === 'running') timer = setTimeout(poll, POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
