// The types of the URL hash's fields, shared by state.js's FIELDS and the fields a feature
// registers (web/src/features/): parse(text) → value, or undefined when the text is not
// acceptable; format(value) → text. A link written by format is read back by parse as the same value.

/** A whole number from min to max, written in decimal. */
export const integer = (min, max) => ({
  parse: (s) => (/^\d+$/.test(s) && Number(s) >= min && Number(s) <= max ? Number(s) : undefined),
  format: String,
});

/** One of `values` (numbers or strings), written as String(value). */
export const oneOf = (values) => ({
  parse: (s) => values.find((v) => String(v) === s),
  format: String,
});

/** A switch written as 1 or 0. */
export const flag = {
  parse: (s) => (s === '1' ? true : s === '0' ? false : undefined),
  format: (v) => (v ? '1' : '0'),
};

/**
 * `type`, refused alone: a link whose text for `key` cannot be read still opens, that field at its
 * default, and the notice `notice` names the field (state.js's `problem`, controller/frame.js).
 */
export const refusedAlone = (key, type, notice) => ({
  ...type,
  notice,
  problem: (s) => type.parse(s) === undefined && key,
});
