// A tiny element builder, so views read as the structure they produce.
//   h('td', { class: 'c', dataset: { i: 0 }, onclick }, '0.6698')

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') {
      for (const [name, v] of Object.entries(value)) if (v !== null && v !== undefined) el.dataset[name] = v;
    } else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
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

/**
 * Sets an element's text only when it differs: a view re-rendered on every step must not replace
 * an unchanged text node, which would make the browser lay that part of the page out again.
 */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
