/*
 * The page editor's behaviour over its forms (they work without it): the phone preview follows
 * what is typed before it is saved, forms save in place (htmx), blocks are dragged into order
 * (SortableJS), and what a change did is announced. No inline script runs on the dashboard.
 */
/* global htmx, Sortable */
(() => {
  // htmx reads no <meta> here: its indicator styles would be inline (the policy allows none), and it evaluates nothing.
  Object.assign(htmx.config, {
    includeIndicatorStyles: false,
    allowEval: false,
    allowScriptTags: false,
    historyCacheSize: 0,
    scrollIntoViewOnBoost: false,
    // Settling copies old attributes onto the new elements for a moment: never `style` (setting it is inline style, which the policy refuses).
    attributesToSettle: ['class', 'width', 'height'],
    // A form's error (400, 404, 409…) is the editor with the message: shown in place, as a full load would.
    responseHandling: [
      { code: '204', swap: false },
      { code: '[234]..', swap: true },
      { code: '...', swap: false, error: true },
    ],
  });
  document.documentElement.classList.add('js');

  const liveForm = document.getElementById('live-form');
  const screen = document.querySelector('.phone .screen');
  /** The block form being typed in (its fields go to the preview too). */
  let activeBlock = null;
  let timer = 0;

  // Two frames: the next render loads in the hidden one and is shown once loaded (no flash).
  let frames = [];
  if (screen) {
    const first = screen.querySelector('iframe');
    const second = first.cloneNode();
    second.name = 'live-b';
    second.removeAttribute('src');
    second.classList.remove('shown');
    second.tabIndex = -1;
    screen.append(second);
    frames = [first, second];
    for (const f of frames) {
      f.addEventListener('load', () => {
        if (!f.dataset.pending) return;
        delete f.dataset.pending;
        for (const g of frames) {
          const shown = g === f;
          g.classList.toggle('shown', shown);
          g.tabIndex = shown ? 0 : -1;
          g.toggleAttribute('aria-hidden', !shown);
        }
      });
    }
  }

  function field(name, value) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    liveForm.append(input);
  }

  /** Sends what the forms hold to the hidden frame. */
  function refresh() {
    if (!liveForm || frames.length === 0) return;
    for (const old of liveForm.querySelectorAll('input:not([name=_csrf])')) old.remove();
    const profile = document.querySelector('form[data-live=profile]');
    if (profile) for (const [k, v] of new FormData(profile)) if (k !== '_csrf' && k !== 'version') field(k, v);
    if (activeBlock && document.contains(activeBlock)) {
      field('b_target', activeBlock.dataset.liveBlock);
      for (const [k, v] of new FormData(activeBlock)) if (k !== '_csrf' && k !== 'version') field(`b_${k}`, v);
    }
    const next = frames.find((f) => !f.classList.contains('shown')) || frames[0];
    next.dataset.pending = '1';
    liveForm.target = next.name;
    liveForm.submit();
  }

  function soon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  }

  function onEdit(e) {
    const form = e.target.closest?.('form');
    if (!form) return;
    if (form.dataset.liveBlock) activeBlock = form;
    if (form.dataset.live || form.dataset.liveBlock) soon();
  }
  document.addEventListener('input', onEdit);
  document.addEventListener('change', onEdit);

  /** Every form takes the newest version of the page a save answered (a tab is stale only to others' changes). */
  function syncVersions() {
    const inputs = [...document.querySelectorAll('input[name=version]')];
    const newest = Math.max(...inputs.map((i) => Number(i.value) || 0));
    for (const i of inputs) i.value = String(newest);
  }

  /** Blocks dragged into a new order are saved at once, in place. */
  function sortable() {
    const list = document.querySelector('ol.blocks');
    const order = document.getElementById('order-form');
    if (!list || !order || list.dataset.sortable) return;
    list.dataset.sortable = '1';
    Sortable.create(list, {
      handle: '.grip',
      // Pointer events rather than the browser's own drag and drop: the same on touch screens, mice and pens.
      forceFallback: true,
      animation: 150,
      onEnd(ev) {
        if (ev.oldIndex === ev.newIndex) return;
        order.querySelector('[name=order]').value = [...list.children].map((li) => li.dataset.id).join(',');
        htmx.ajax('POST', order.action, {
          source: order,
          target: '#s-blocks',
          select: '#s-blocks',
          swap: 'outerHTML show:none',
          values: Object.fromEntries(new FormData(order)),
        });
      },
    });
  }

  /**
   * A link's address pasted or typed with its label empty: the label becomes the linked page's
   * title (read by the server through its SSRF-safe fetcher), until the person types a label.
   */
  const titleTimers = new WeakMap();
  function fillTitle(input) {
    const form = input.form;
    const label = form?.querySelector('input[name=label]');
    const page = /\/dashboard\/pages\/([0-9a-f]{24})\//.exec(form?.getAttribute('action') || '');
    if (!label || !page || (label.value !== '' && label.dataset.titled !== label.value)) return;
    clearTimeout(titleTimers.get(input));
    const url = input.value.trim();
    if (!/^https?:\/\/\S+\.\S+/i.test(url)) return;
    titleTimers.set(
      input,
      setTimeout(async () => {
        const res = await fetch(`/dashboard/pages/${page[1]}/link-title?url=${encodeURIComponent(url)}`).catch(
          () => null,
        );
        const answer = res?.ok ? await res.json() : null;
        // Still the same address, and the label still empty or the one filled before.
        if (!answer?.title || input.value.trim() !== url) return;
        if (label.value !== '' && label.dataset.titled !== label.value) return;
        label.value = answer.title;
        label.dataset.titled = answer.title;
        label.dispatchEvent(new Event('input', { bubbles: true }));
      }, 400),
    );
  }
  document.addEventListener('input', (e) => {
    if (e.target.matches?.('form[data-live-block] input[name=url]')) fillTitle(e.target);
  });

  /** Tapping a picture sets its focus point in the form's fields (which keyboards use as before). */
  function focusPickers() {
    for (const pick of document.querySelectorAll('.focus-pick:not([data-bound])')) {
      pick.dataset.bound = '';
      const form = pick.closest('form');
      const x = form.querySelector('[name=x]');
      const y = form.querySelector('[name=y]');
      const dot = pick.querySelector('.dot');
      const place = () => {
        const set = x.value !== '' && y.value !== '';
        dot.hidden = !set;
        if (set) {
          dot.style.left = `${Math.min(100, Math.max(0, Number(x.value)))}%`;
          dot.style.top = `${Math.min(100, Math.max(0, Number(y.value)))}%`;
        }
      };
      pick.querySelector('img').addEventListener('click', (e) => {
        const r = e.currentTarget.getBoundingClientRect();
        const percent = (at, size) => String(Math.round(Math.min(1, Math.max(0, at / size)) * 1000) / 10);
        x.value = percent(e.clientX - r.left, r.width);
        y.value = percent(e.clientY - r.top, r.height);
        place();
      });
      x.addEventListener('input', place);
      y.addEventListener('input', place);
      place();
      // Shown once the picture has its size: a tap on a picture still loading would be measured against no height.
      const img = pick.querySelector('img');
      if (img.complete && img.naturalHeight > 0) pick.hidden = false;
      else img.addEventListener('load', () => (pick.hidden = false), { once: true });
    }
  }

  // A notice of a change made in place is kept in view (editor.css) until the next change.
  document.addEventListener('htmx:beforeRequest', () => document.getElementById('flash')?.classList.remove('fresh'));
  document.addEventListener('htmx:afterSwap', () => document.getElementById('flash')?.classList.add('fresh'));

  // The preview sheet of a phone closes with Escape too (its checkbox keeps working without script).
  document.addEventListener('keydown', (e) => {
    const toggle = document.getElementById('show-preview');
    if (e.key !== 'Escape' || !toggle?.checked) return;
    toggle.checked = false;
    toggle.focus();
  });

  document.addEventListener('htmx:afterSettle', () => {
    syncVersions();
    sortable();
    focusPickers();
    activeBlock = null;
    refresh();
    // Focus lost with the element that had it (a button now disabled, a form replaced): the message says what happened.
    if (document.activeElement === document.body) {
      const said = document.querySelector('#flash .alert');
      if (said) {
        said.tabIndex = -1;
        said.focus({ preventScroll: true });
      }
    }
  });
  sortable();
  focusPickers();
})();
