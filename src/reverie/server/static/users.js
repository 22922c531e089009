// Users (admins): the people Reverie keeps memories for. The same accounts as `reverie users`.

import { api } from './api.js';
import { h, guard, notify, confirmDialog, formatDate, uid } from './dom.js';

function userRow(person, me, refresh) {
  const remove = person.name === me.name ? null
    : h('button', { type: 'button', class: 'btn btn-small btn-danger', 'aria-label': `Remove ${person.name}`,
      on: { click: guard(async () => {
        const ok = await confirmDialog({ title: `Remove ${person.name}?`, confirmLabel: 'Remove',
          typeToConfirm: person.name,
          body: h('p', {}, 'Everything kept about them is deleted: memories, preferences, summaries, topics, '
            + 'chat history, documents they own and their API tokens.') });
        if (!ok) return;
        await api(`/api/v1/users/${encodeURIComponent(person.name)}`, { method: 'DELETE' });
        notify(`Removed ${person.name}.`, 'ok');
        await refresh();
      }) } }, 'Remove');
  const password = h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Set password: ${person.name}`,
    on: { click: guard(async () => {
      const field = h('input', { id: 'new-user-password', class: 'input', type: 'password', minlength: 8,
        autocomplete: 'new-password' });
      const ok = await confirmDialog({ title: `Set ${person.name}'s password`, confirmLabel: 'Set password',
        danger: false, body: h('div', {}, h('label', { class: 'label', for: 'new-user-password' },
          'New password (at least 8 characters)'), field) });
      if (!ok) return;
      await api(`/api/v1/users/${encodeURIComponent(person.name)}/password`, { method: 'PUT',
        body: { password: field.value } });
      notify(`${person.name} can sign in with the new password.`, 'ok');
    }) } }, 'Set password');
  const role = person.is_admin ? h('span', { class: 'badge' }, 'Admin') : null;
  return h('li', { class: 'item', dataset: { name: person.name } },
    h('div', { class: 'item-main' }, h('p', { class: 'item-text' }, h('strong', {}, person.name),
      person.display_name ? ` (${person.display_name})` : '', ' ', role),
    h('div', { class: 'item-actions' }, password, remove)),
    h('p', { class: 'item-meta' }, `Added ${formatDate(person.created_at)}`
      + `  |  CLI: reverie --user ${person.name} …`));
}

function addForm(refresh) {
  const name = h('input', { id: 'user-name', class: 'input', autocomplete: 'off', required: true, maxlength: 64 });
  const display = h('input', { id: 'user-display', class: 'input', autocomplete: 'off', maxlength: 100 });
  const password = h('input', { id: 'user-password', class: 'input', type: 'password', minlength: 8,
    autocomplete: 'new-password' });
  const admin = h('input', { id: 'user-admin', type: 'checkbox' });
  const form = h('form', { class: 'inline-form' },
    h('div', { class: 'field' }, h('label', { class: 'label', for: 'user-name' }, 'User name'), name),
    h('div', { class: 'field' }, h('label', { class: 'label', for: 'user-display' }, 'Display name'), display),
    h('div', { class: 'field' }, h('label', { class: 'label', for: 'user-password' },
      'Password (for the web UI)'), password),
    h('div', { class: 'field check' }, admin, h('label', { class: 'label', for: 'user-admin' }, 'Admin')),
    h('button', { type: 'submit', class: 'btn btn-primary' }, 'Add user'));
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    const body = { name: name.value.trim(), display_name: display.value.trim(), is_admin: admin.checked };
    if (password.value) body.password = password.value;
    await api('/api/v1/users', { method: 'POST', body });
    notify(`Added ${body.name}.`, 'ok');
    form.reset();
    await refresh();
  }));
  return form;
}

// voice interfaces --------------------------------------------------------------------------
function userChoice(id, users, selected, empty) {
  return h('select', { id, class: 'input' }, empty ? h('option', { value: '' }, empty) : null,
    users.map((person) => h('option', { value: person.name, selected: person.name === selected },
      person.display_name && person.display_name !== person.name
        ? `${person.display_name} (${person.name})` : person.name)));
}

async function mapInterface(name, user) {
  await api(`/api/v1/interfaces/${encodeURIComponent(name)}`, { method: 'PUT', body: { user } });
  notify(`${name} now speaks for ${user}.`, 'ok');
}

// Who else may say "This is NAME" on the interface ([memory.voice_speakers] of the config file).
function speakersForm(mapping, speakers, refresh) {
  const id = uid('speakers');
  const names = h('input', { id, class: 'input', autocomplete: 'off', maxlength: 2000,
    value: speakers.join(', '), placeholder: 'e.g. alice, bob' });
  const form = h('form', { class: 'inline-form speakers' },
    h('div', { class: 'field grow' },
      h('label', { class: 'label', for: id }, `Who else may say "This is …" on ${mapping.interface}`), names),
    h('button', { type: 'submit', class: 'btn btn-small', 'aria-label': `Save speakers of ${mapping.interface}` },
      'Save'));
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    const wanted = names.value.split(',').map((name) => name.trim()).filter(Boolean);
    const answer = await api(`/api/v1/interfaces/${encodeURIComponent(mapping.interface)}/speakers`,
      { method: 'PUT', body: { users: wanted } });
    const saved = answer.speakers[mapping.interface] || [];
    notify(saved.length ? `On ${mapping.interface}, ${saved.join(', ')} may also say who is speaking.`
      : `On ${mapping.interface}, only its own user speaks.`, 'ok');
    await refresh();
  }));
  return form;
}

function interfaceRow(mapping, users, speakers, refresh) {
  const id = uid('interface');
  const choose = userChoice(id, users, mapping.user, mapping.user ? null : 'Guest (no memory)');
  choose.addEventListener('change', guard(async () => {
    if (choose.value) await mapInterface(mapping.interface, choose.value);
    await refresh();
  }));
  const unmap = mapping.user === null ? null
    : h('button', { type: 'button', class: 'btn btn-small btn-danger', 'aria-label': `Unmap ${mapping.interface}`,
      on: { click: guard(async () => {
        const answer = await api(`/api/v1/interfaces/${encodeURIComponent(mapping.interface)}`,
          { method: 'DELETE' });
        notify(answer.user ? `${mapping.interface} keeps ${answer.user} from the config file.`
          : `${mapping.interface} is a guest again.`, 'ok');
        await refresh();
      }) } }, 'Unmap');
  return h('li', { class: 'item interface', dataset: { interface: mapping.interface } },
    h('div', { class: 'item-main' },
      h('p', { class: 'item-text' }, h('strong', {}, mapping.interface)),
      h('div', { class: 'item-actions' },
        h('label', { class: 'visually-hidden', for: id }, `User of ${mapping.interface}`), choose, unmap)),
    h('p', { class: 'item-meta' }, mapping.user ? `Memories are ${mapping.user}'s.`
      : 'A guest: replies, but nothing is remembered.'),
    speakersForm(mapping, speakers, refresh));
}

function interfacesCard() {
  const list = h('ul', { class: 'items interfaces' });
  const name = h('input', { id: 'interface-name', class: 'input', autocomplete: 'off', required: true,
    maxlength: 100, placeholder: 'e.g. kitchen' });
  const who = h('span');
  const form = h('form', { class: 'inline-form' },
    h('div', { class: 'field' }, h('label', { class: 'label', for: 'interface-name' }, 'Voice interface'), name),
    h('div', { class: 'field' }, h('label', { class: 'label', for: 'interface-user' }, 'Speaks for'), who),
    h('button', { type: 'submit', class: 'btn btn-primary' }, 'Map'));
  const refresh = async () => {
    const [mapped, { users }, { speakers }] = await Promise.all([api('/api/v1/interfaces'),
      api('/api/v1/users'), api('/api/v1/interfaces/speakers')]);
    const mappings = [...mapped];  // interfaces that only have speakers are listed too, as guests
    Object.keys(speakers).filter((name) => !mapped.some((m) => m.interface === name)).sort()
      .forEach((name) => mappings.push({ interface: name, user: null }));
    who.replaceChildren(userChoice('interface-user', users, null, null));
    list.replaceChildren(...mappings.map((m) => interfaceRow(m, users, speakers[m.interface] || [], refresh)));
    if (!mappings.length) list.append(h('li', { class: 'item muted' }, 'No voice interface is mapped yet.'));
  };
  form.addEventListener('submit', guard(async (event) => {
    event.preventDefault();
    const interfaceName = name.value.trim();
    if (!interfaceName) {
      name.focus();
      return;
    }
    await mapInterface(interfaceName, form.querySelector('#interface-user').value);
    name.value = '';
    await refresh();
  }));
  const card = h('section', { class: 'card', 'aria-labelledby': 'interfaces-title' },
    h('h2', { id: 'interfaces-title' }, 'Voice interfaces'),
    h('p', { class: 'muted' }, 'A voice interface (a microphone, a satellite in the kitchen) keeps no memories '
      + 'until it is mapped to a user: its device tokens then act as that user. Mappings in the config file ',
    h('code', {}, '[memory.voice_mapping]'), ' are listed too and win over these. On a shared interface, '
      + 'the users named under it may also say "This is Alice" to switch the session to themselves (',
    h('code', {}, '[memory.voice_speakers]'), ', saved to the config file).'),
    form, list);
  return { card, refresh };
}

/** Render the Users page (admins only). */
export async function usersPage(container, { user }) {
  const list = h('ul', { class: 'items users' });
  const interfaces = interfacesCard();
  const refresh = async () => {
    const { users } = await api('/api/v1/users');
    list.replaceChildren(...users.map((person) => userRow(person, user, refresh)));
  };
  container.append(
    h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'Users')),
    h('p', { class: 'muted' }, 'Each user has their own memories. The web UI and the ',
      h('code', {}, 'reverie'), ' command share these accounts: ', h('code', {}, 'reverie --user NAME'),
      ' acts as one of them, and without --user the command acts as the first admin.'),
    h('section', { class: 'card', 'aria-labelledby': 'add-user-title' },
      h('h2', { id: 'add-user-title' }, 'Add a user'), addForm(refresh)),
    h('section', { class: 'card', 'aria-labelledby': 'users-title' },
      h('h2', { id: 'users-title' }, 'Everyone'), list),
    interfaces.card);
  await Promise.all([refresh(), interfaces.refresh()]);
}
