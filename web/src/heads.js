// What the heads overview says about each head's attention weights A. Pure: no DOM.

/**
 * One head's A in three numbers and a list: its mean entropy over the rows (in bits: 0 when every
 * word puts all its attention on one word, log₂ n when it spreads it evenly; a masked weight of 0
 * adds nothing), its largest weight, and for each word (row i) the word it weighs most, { i, j,
 * weight } — the line the overview draws. A row with NaN gives NaN (the page says so elsewhere).
 */
export function headSummary(weights) {
  const { rows, cols, data } = weights;
  let entropy = 0;
  let largest = -Infinity;
  const strongest = [];
  for (let i = 0; i < rows; i++) {
    let best = { i, j: 0, weight: -Infinity };
    for (let j = 0; j < cols; j++) {
      const a = data[i * cols + j];
      if (a > 0) entropy -= a * Math.log2(a);
      else if (Number.isNaN(a)) entropy = NaN;
      if (a > best.weight) best = { i, j, weight: a };
      if (a > largest) largest = a;
    }
    strongest.push(best);
  }
  return { entropy: entropy / rows, largest, strongest };
}
