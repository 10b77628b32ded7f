/*
 * The editor saves itself. A change in the profile or in a block's form is saved and published
 * after a pause in typing, or at once for a choice (a template, a checkbox), through the form's
 * own action with the version the editor shows, so a change made elsewhere meanwhile is refused,
 * never overwritten. One line at the foot of the screen (in view on a phone) says where things
 * are: "Saving…", "Saved" with Undo (the page as it was before that change, restored as a new
 * version; once for each change), or "Couldn't save" with why and Retry. Leaving with a change
 * not saved yet asks first. Without script the forms keep their Save buttons.
 */
/* global htmx */
(() => {
  const bar = document.getElementById('save-state');
  const editor = document.querySelector('main.editor');
  if (!bar || !editor) return;
  document.documentElement.classList.add('autosave');
  const pageId = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(location.pathname)?.[1];
  const TYPING_PAUSE_MS = 700;

  /** Forms changed and not saved yet, with the timer that saves them. */
  const waiting = new Map();
  /** Each saved change's version before it, the latest last: what Undo restores. */
  const undo = [];
  /** Saves go one at a time, in the order they were asked. */
  let queue = Promise.resolve();
  /** Saves asked and not ended. */
  let queued = 0;
  let failedForm = null;

  const csrf = () => document.querySelector('input[name=_csrf]')?.value ?? '';
  const version = () => Number(document.querySelector('input[name=version]')?.value) || 0;
  function setVersion(v) {
    for (const input of document.querySelectorAll('input[name=version]')) input.value = String(v);
  }

  /** The line's text and its one button (or none). */
  function say(state, text, button) {
    bar.dataset.state = state;
    bar.replaceChildren(Object.assign(document.createElement('span'), { textContent: text }));
    if (button) {
      const b = Object.assign(document.createElement('button'), { type: 'button', textContent: button.label });
      b.className = 'quiet small';
      b.addEventListener('click', button.run);
      bar.append(' ', b);
    }
    bar.hidden = false;
  }

  /** What a form says, its version aside; and what each form said when last saved or shown. */
  const contentOf = (form) => {
    const fields = new URLSearchParams(new FormData(form));
    fields.delete('version');
    return fields.toString();
  };
  const stored = new WeakMap();
  const remember = () => {
    for (const form of document.querySelectorAll('form[data-autosave]')) stored.set(form, contentOf(form));
  };
  remember();
  document.addEventListener('htmx:afterSettle', remember);

  function changed(event) {
    const form = event.target.closest?.('form[data-autosave]');
    if (!form || event.target.type === 'file') return;
    // A change event after typing already saved, or a field put back as it was: nothing to save.
    if (!waiting.has(form) && stored.get(form) === contentOf(form)) return;
    // A choice is made at once; typing (and a colour being dragged) is saved when it pauses or the field is left.
    const typing = event.type === 'input' && !event.target.matches('select, input[type=checkbox], input[type=radio]');
    later(form, typing ? TYPING_PAUSE_MS : 0);
  }

  function later(form, delay) {
    clearTimeout(waiting.get(form));
    waiting.set(
      form,
      setTimeout(() => save(form), delay),
    );
    if (bar.dataset.state !== 'saving') say('waiting', 'Changes not saved yet…');
  }

  function save(form) {
    clearTimeout(waiting.get(form));
    waiting.delete(form);
    // What the form holds when its turn comes, on the version the last save left.
    queued++;
    queue = queue
      .then(() => send(form))
      .catch(() => failed(form, 'No connection to the server.'))
      .finally(() => queued--);
  }

  async function send(form) {
    const before = version();
    const content = contentOf(form);
    const body = new URLSearchParams(content);
    body.set('version', String(before));
    say('saving', 'Saving…');
    let answer;
    try {
      // The attribute: a block's form has a field named `action`, which form.action would give.
      answer = await fetch(form.getAttribute('action'), { method: 'POST', body, credentials: 'same-origin' });
    } catch {
      return failed(form, 'No connection to the server.');
    }
    const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
    if (!answer.ok) {
      const why = page.querySelector('#flash .alert.error')?.textContent?.replace(/\s+/g, ' ').trim();
      return failed(form, why || `The server answered ${answer.status}.`, answer.status === 409);
    }
    setVersion(Number(page.querySelector('input[name=version]')?.value) || before + 1);
    // A block's line in the list (its title, its marks) as saved; its form stays as typed.
    const block = form.dataset.liveBlock;
    const head = block && document.querySelector(`#block-${block} > .head`);
    const saved = head && page.querySelector(`#block-${block} > .head`);
    if (saved) {
      head.replaceWith(saved);
      htmx.process(saved);
    }
    stored.set(form, content);
    undo.push(before);
    failedForm = null;
    // The last save asked: the page is as the editor shows it.
    if (waiting.size === 0 && queued === 1) say('saved', 'Saved', { label: 'Undo', run: undoLast });
  }

  function failed(form, why, stale = false) {
    failedForm = form;
    say(
      'failed',
      `Couldn't save: ${why}`,
      stale ? { label: 'Reload', run: () => location.reload() } : { label: 'Retry', run: () => save(form) },
    );
  }

  /** The page as it was before the last saved change, as a new version; the editor shows it. */
  function undoLast() {
    const to = undo.at(-1);
    if (to === undefined || !pageId || waiting.size > 0) return;
    queue = queue.then(async () => {
      say('saving', 'Undoing…');
      const body = new URLSearchParams({ _csrf: csrf(), version: String(version()), return: 'editor' });
      const answer = await fetch(`/dashboard/pages/${pageId}/history/${to}/restore`, {
        method: 'POST',
        body,
        credentials: 'same-origin',
      }).catch(() => null);
      const html = answer ? await answer.text().catch(() => '') : '';
      if (!answer?.ok || !html)
        return say('failed', "Couldn't undo.", { label: 'Reload', run: () => location.reload() });
      // The editor as the restored version has it (editor.js sets it up again after the swap).
      htmx.swap('main.editor', html, { swapStyle: 'outerHTML', scroll: null, show: null }, { select: 'main.editor' });
      undo.pop();
      say('saved', 'Change undone', undo.length > 0 ? { label: 'Undo', run: undoLast } : null);
    });
  }

  // Another change of the editor's (a block added, moved, deleted) waits for the saves under
  // way, then goes on the version they left.
  document.addEventListener('htmx:confirm', (e) => {
    if (waiting.size === 0 && queued === 0) return;
    e.preventDefault();
    for (const form of [...waiting.keys()]) save(form);
    queue = queue.then(() => {
      const values = e.detail.etc?.values;
      if (values && 'version' in values) values.version = String(version());
      return e.detail.issueRequest(true);
    });
  });
  // Another change (a block added, moved, deleted) is a version of its own: Undo would take it
  // back too, so the line's Undo goes; that change says what it did, with its own Undo if any.
  document.addEventListener('htmx:beforeRequest', (e) => {
    if (e.detail.requestConfig?.verb !== 'post') return;
    undo.length = 0;
    if (bar.dataset.state === 'saved') bar.hidden = true;
  });
  document.addEventListener('input', changed);
  document.addEventListener('change', changed);
  // Typing left: saved now rather than after the pause.
  document.addEventListener('focusout', (e) => {
    const form = e.target.closest?.('form[data-autosave]');
    if (form && waiting.has(form)) save(form);
  });
  window.addEventListener('beforeunload', (e) => {
    if (waiting.size > 0 || queued > 0 || failedForm) e.preventDefault();
  });
})();
