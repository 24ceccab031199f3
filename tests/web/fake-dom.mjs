// Just enough of a DOM for the views that build elements (views/dom.js h, views/math.js mml) to
// run in Node: elements with attributes, children, text, classes and a dataset. What the tests
// read is the elements' names, attributes and text, as the browser would give them.

class FakeNode {}

class FakeText extends FakeNode {
  constructor(data) {
    super();
    this.nodeType = 3;
    this.data = data;
  }
  get textContent() {
    return this.data;
  }
}

class FakeElement extends FakeNode {
  constructor(localName, namespaceURI = 'http://www.w3.org/1999/xhtml') {
    super();
    this.nodeType = 1;
    this.localName = localName;
    this.namespaceURI = namespaceURI;
    this.childNodes = [];
    this.attributes = new Map();
    this.dataset = {};
    this.style = {};
    this.className = '';
    const classes = () => new Set(this.className.split(/\s+/).filter(Boolean));
    this.classList = {
      contains: (name) => classes().has(name),
      add: (...names) => {
        this.className = [...new Set([...classes(), ...names])].join(' ');
      },
      toggle: (name, on = !classes().has(name)) => {
        const set = classes();
        if (on) set.add(name);
        else set.delete(name);
        this.className = [...set].join(' ');
        return on;
      },
    };
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }
  removeAttribute(name) {
    this.attributes.delete(name);
  }
  addEventListener() {}
  // A node is in one place at a time, as in a browser: appended elsewhere, it leaves its parent
  // (a view that writes one node twice loses the first copy, and the tests see it).
  append(...children) {
    for (const child of children) {
      const node = typeof child === 'string' ? new FakeText(child) : child;
      node.parentNode?.removeChild(node);
      node.parentNode = this;
      this.childNodes.push(node);
    }
  }
  removeChild(node) {
    this.childNodes = this.childNodes.filter((child) => child !== node);
    node.parentNode = null;
    return node;
  }
  replaceChildren(...children) {
    for (const child of this.childNodes) child.parentNode = null;
    this.childNodes = [];
    this.append(...children);
  }
  get children() {
    return this.childNodes.filter((node) => node.nodeType === 1);
  }
  get textContent() {
    return this.childNodes.map((node) => node.textContent).join('');
  }
  set textContent(text) {
    this.childNodes = text ? [new FakeText(text)] : [];
  }
  /** The descendants (and itself) named `localName`, in document order. */
  all(localName) {
    const own = this.localName === localName ? [this] : [];
    return [...own, ...this.children.flatMap((child) => child.all(localName))];
  }
}

/** Installs the fake `document` and `Node` as globals (the views read them there). */
export function installFakeDom() {
  globalThis.Node = FakeNode;
  globalThis.document = {
    createElement: (name) => new FakeElement(name),
    createElementNS: (ns, name) => new FakeElement(name, ns),
  };
}
