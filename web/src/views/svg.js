// SVG built with DOM calls, for the labs' charts (histograms, log–log plots, bar rows): the
// counterpart of dom.js's h() in the SVG namespace. Colours come from CSS classes, so that the
// charts follow the light and dark themes like the rest of the page.
//   svg('svg', { viewBox: '0 0 320 180', role: 'img', 'aria-label': '…' }, svg('rect', { x: 0, … }))

const NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(key === 'className' ? 'class' : key, String(value));
  }
  const add = (child) => {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(add);
    else el.append(typeof child === 'object' ? child : String(child));
  };
  children.forEach(add);
  return el;
}

/** A number for an SVG attribute: two decimals are finer than a pixel at any size the page draws. */
export const px = (x) => Math.round(x * 100) / 100;
