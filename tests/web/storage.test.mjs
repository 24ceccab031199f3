// Preferences survive a sandboxed frame, where merely reading window.localStorage throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPreference, writePreference } from '../../web/src/storage.js';

function withLocalStorage(descriptor, run) {
  const before = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', { configurable: true, ...descriptor });
  try {
    run();
  } finally {
    if (before) Object.defineProperty(globalThis, 'localStorage', before);
    else delete globalThis.localStorage;
  }
}

test('reads and writes through localStorage when it works', () => {
  const map = new Map();
  withLocalStorage({ value: { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, v) } }, () => {
    writePreference('lang', 'en');
    assert.equal(readPreference('lang'), 'en');
    assert.equal(readPreference('other'), null);
  });
});

test('a throwing localStorage (sandboxed iframe) reads as nothing and writes nowhere', () => {
  withLocalStorage(
    {
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    },
    () => {
      assert.doesNotThrow(() => writePreference('lang', 'en'));
      assert.equal(readPreference('lang'), null);
    },
  );
  withLocalStorage(
    {
      value: {
        getItem() {
          throw new Error('quota');
        },
        setItem() {
          throw new Error('quota');
        },
      },
    },
    () => {
      assert.doesNotThrow(() => writePreference('lang', 'en'));
      assert.equal(readPreference('lang'), null);
    },
  );
});
