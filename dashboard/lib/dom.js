// Building DOM nodes without HTML strings: text is always set as text, so nothing the
// node returns (tags, metadata, data) can inject markup.

/**
 * h('a', { href: '#/x', class: 'id' }, 'text', child, [more])
 * Attributes starting with `on` become listeners; `dataset` takes an object; null and
 * false children are skipped.
 */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace an element's content. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A two-column table of label → value rows; rows whose value is undefined are left out. */
export function facts(rows) {
  return h(
    'table',
    { class: 'facts' },
    h(
      'tbody',
      {},
      rows
        .filter(([, value]) => value !== undefined)
        .map(([label, value]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value))),
    ),
  );
}
