// Small DOM helpers: element builders, notices, confirmations and formatting.

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') el.textContent = value;
    else if (name === 'value') el.value = value;
    else if (name === 'on') for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name in el && typeof value !== 'string' && !(el instanceof SVGElement)) el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** An HTML element: h('button', {class: 'x', on: {click}}, 'Label'). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  return append(el, children);
}

/** An SVG element with attributes. */
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs);
  return append(el, children);
}

let idCounter = 0;
/** A fresh id for label/aria wiring. */
export function uid(prefix = 'id') {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** A short message in the live region (kind: info, ok or error). */
export function notify(message, kind = 'info') {
  const box = document.getElementById('toasts');
  const toast = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : null }, message);
  box.append(toast);
  setTimeout(() => toast.remove(), kind === 'error' ? 8000 : 4000);
}

/** The message of an error for people. */
export function errorText(err) {
  return err && err.message ? err.message : String(err);
}

/** Run an async handler and show its error instead of leaving it unhandled. */
export function guard(fn) {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      notify(errorText(err), 'error');
      return undefined;
    }
  };
}

/**
 * A modal dialog; resolves true when confirmed. `body` is a node or text; with `typeToConfirm`
 * the confirm button stays off until that word is typed in the box.
 */
export function confirmDialog({ title, body, confirmLabel = 'Delete', danger = true, typeToConfirm }) {
  const dialog = document.getElementById('dialog');
  return new Promise((resolve) => {
    const confirm = h('button', { type: 'submit', class: danger ? 'btn btn-danger' : 'btn btn-primary' },
      confirmLabel);
    const cancel = h('button', { type: 'button', class: 'btn', on: { click: () => dialog.close('cancel') } },
      'Cancel');
    const parts = [h('h2', { id: 'dialog-title' }, title), h('div', { class: 'dialog-body' }, body)];
    if (typeToConfirm) {
      const inputId = uid('confirm');
      const input = h('input', { id: inputId, class: 'input', autocomplete: 'off', spellcheck: 'false' });
      confirm.disabled = true;
      input.addEventListener('input', () => { confirm.disabled = input.value !== typeToConfirm; });
      parts.push(h('label', { for: inputId, class: 'label' }, `To confirm, type ${typeToConfirm} below:`), input);
    }
    const form = h('form', { method: 'dialog', class: 'dialog-form' }, ...parts,
      h('div', { class: 'actions' }, cancel, confirm));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!confirm.disabled) dialog.close('confirm');
    });
    dialog.replaceChildren(form);
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
    (form.querySelector('input') || cancel).focus();
  });
}

const DATE = { month: 'short', day: 'numeric', year: 'numeric' };
const TIME = { hour: 'numeric', minute: '2-digit' };

/** "Jan 15, 2026". */
export function formatDate(iso) {
  return iso ? new Date(iso).toLocaleDateString('en-US', DATE) : '—';
}

/** "Jan 15, 2026 - 3:42 PM". */
export function formatDateTime(iso) {
  if (!iso) return '—';
  const when = new Date(iso);
  return `${when.toLocaleDateString('en-US', DATE)} - ${when.toLocaleTimeString('en-US', TIME)}`;
}

/** "2 hours ago". */
export function timeAgo(iso) {
  if (!iso) return 'never';
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  const steps = [[60, 'second'], [60, 'minute'], [24, 'hour'], [30, 'day'], [12, 'month'], [Infinity, 'year']];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (value < size) {
      const n = Math.floor(value);
      return n <= 0 && unit === 'second' ? 'just now' : `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
    value /= size;
  }
  return '';
}

/** "95%". */
export function percent(value) {
  return `${Math.round(value * 100)}%`;
}

/** Singular or plural: plural(2, 'fact') → "2 facts". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

const ICONS = {
  edit: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  search: 'M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zM16 16l5 5',
  filter: 'M3 5h18l-7 8v6l-4 2v-8L3 5z',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  merge: 'M6 4v4a4 4 0 0 0 4 4h8M14 8l4 4-4 4M6 20v-8',
  unlock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 7.5-2',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  refresh: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5',
  plus: 'M12 5v14M5 12h14',
  help: 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5v.5M12 22a10 10 0 1 1 0-20 10 10 0 0 1 0 20z',
};

/** A line icon (decorative: the button around it carries the label). */
export function icon(name) {
  return svg('svg', { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: ICONS[name] }));
}
