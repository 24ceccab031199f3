// A tiny SVG element builder for the labs' charts, like dom.js's h() for HTML:
//   s('rect', { x: 0, class: 'bar' }, …children)

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element: attributes as given (none for null, undefined or false), string children become text. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs))
    if (value !== undefined && value !== null && value !== false) el.setAttribute(key, String(value));
  for (const child of children.flat())
    if (child !== null && child !== undefined && child !== false)
      el.append(child instanceof Node ? child : String(child));
  return el;
}
