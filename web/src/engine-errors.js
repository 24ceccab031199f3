// The core's refusals in the reader's language. The API's Error carries a code, the argument at
// fault, the cell and the message's numbers (docs/api.md); this module turns those into
// a sentence in zh-CN or en and the field it belongs to — never by reading the English message.
// Pure: no DOM.

import { formatNumber } from './format.js';
import { temperatureMessage } from './input-rules.js';

// How the page names each argument. In mode "from X" the page computes Q, K and V itself, so a
// refusal of q means the product X·W_Q (an overflow, say): the reader edits X or W_Q, not Q.
const NAMES = { x: 'X', wq: 'W_Q', wk: 'W_K', wv: 'W_V', wo: 'W_O', q: 'Q', k: 'K', v: 'V', mask: 'mask', w: 'W' };
const PRODUCTS = { q: 'Q = X·W_Q', k: 'K = X·W_K', v: 'V = X·W_V' };
// Own properties only: an argument named 'constructor' (an unknown option's key) is not a matrix.
const own = (table, key) =>
  typeof key === 'string' && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/** Sizes in the units the core's messages use. */
function bytes(value) {
  const mib = value / 2 ** 20;
  return mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${mib.toFixed(1)} MiB`;
}

/**
 * Which input an engine Error is about, as the page's matrix name ('q', 'wk', …), 'temperature',
 * or null when no single field is (the message then goes to the top of the panel).
 * `error.matrix` is set by model.js when a projection X·W_? was refused (the API says only 'w').
 */
export function engineErrorField(error) {
  if (error.code === 'heads_indivisible') return 'heads'; // the count of heads, not the matrix, is what to change
  const name = error.matrix ?? error.argument;
  return own(NAMES, name) !== undefined || name === 'temperature' ? name : null;
}

/**
 * The sentence for an engine Error, in the language of `t` (a translator from i18n/index.js).
 * `mode` is the state's input mode ('x' or 'qkv'); `digits` the page's precision for values.
 */
export function describeEngineError(error, t, { mode = 'qkv', digits = 4 } = {}) {
  const argument = error.matrix ?? error.argument;
  const name = (mode === 'x' ? own(PRODUCTS, argument) : undefined) ?? own(NAMES, argument) ?? argument ?? '';
  // A temperature the API refused says why in the page's words for the rule (input-rules.js).
  if (error.code === 'bad_temperature' && error.params?.reason)
    return t('err.engine', { message: temperatureMessage(error.params, t, formatNumber(error.params.value, digits)) });
  const params = { ...error.params, name };
  if (typeof params.value === 'number') params.value = formatNumber(params.value, digits);
  if (typeof params.bytes === 'number') params.bytes = bytes(params.bytes);
  if (typeof params.limit === 'number') params.limit = bytes(params.limit);
  const known = typeof error.code === 'string' && t(`core.${error.code}`) !== `core.${error.code}`;
  // An Error without a known code (the module aborted, say) keeps its own message.
  const sentence = known ? t(`core.${error.code}`, params) : String(error.message);
  const where = error.cell
    ? t('err.cellIn', { row: error.cell.row + 1, col: error.cell.col + 1, message: sentence })
    : sentence;
  return t('err.engine', { message: where });
}
