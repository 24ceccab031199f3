// training-model.mjs — what the training benchmark times, shared by Node (bench/training.mjs) and
// the browser page (bench/browser/training-page.mjs): the two sizes, the batches of reverse, our
// loss on a batch read from the trainer's own logits, and the same model trained by TensorFlow.js.
//
// The model (core/model.hpp): x_i = E[token_i] ⊕ one-hot(i) (d_model = d_token + n), per head
// Q = X·W_Q, K = X·W_K, V = X·W_V, O_h = softmax(Q·Kᵀ/√d_k)·V, logits = [O_1 … O_H]·W_out + b, the
// mean cross-entropy over every position, Adam (β₁ 0.9, β₂ 0.999, ε 1e-8), batch 32.
// TensorFlow.js starts from our trainer's initial parameters, and the gate checks that it computes
// the same loss as ours on the same parameters and batch before anything of it is timed.

export const BATCH = 32;
export const SIZES = Object.freeze([
  { key: 'n8', label: 'n = 8, d = 16, 1 head', config: { length: 8, symbols: 8, dToken: 16, dHead: 16, heads: 1 } },
  // d split across the heads: d_k = 16 each
  {
    key: 'n16',
    label: 'n = 16, d = 32, 2 heads',
    config: { length: 16, symbols: 16, dToken: 32, dHead: 16, heads: 2 },
  },
]);
/** createTrainer's config of a size: reverse, one-hot positions, Adam, batch 32, lr 0.01. */
export const trainerConfig = (size) => ({
  task: 'reverse',
  position: 'one_hot',
  optimizer: 'adam',
  learningRate: 0.01,
  batch: BATCH,
  seed: 7,
  ...size.config,
});
/** The gate's bound on |our loss − TensorFlow.js's| / our loss (both float32). */
export const GATE_RELATIVE = 1e-4;

/** A seeded stream of whole numbers below `n` (xorshift32; any fixed stream would do). */
export function seededBelow(seed) {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
}

/** `count` sequences of reverse (core/tasks.hpp): tokens, and targets y_i = x_{n−1−i}. */
export function reverseBatch({ length, symbols }, count, below) {
  const tokens = [];
  const targets = [];
  for (let s = 0; s < count; s++) {
    const seq = Array.from({ length }, () => below(symbols));
    tokens.push(seq);
    targets.push([...seq].reverse());
  }
  return { tokens, targets };
}

/** Mean cross-entropy of our trainer's model on a batch, from its logits (probe), in float64. */
export function ourLoss(trainer, { tokens, targets }) {
  let sum = 0;
  let count = 0;
  tokens.forEach((seq, s) => {
    const { logits } = trainer.probe(seq);
    for (let i = 0; i < logits.rows; i++) {
      const row = Array.from(logits.data.subarray(i * logits.cols, (i + 1) * logits.cols));
      const max = Math.max(...row);
      const logSum = Math.log(row.reduce((acc, z) => acc + Math.exp(z - max), 0)) + max;
      sum += logSum - row[targets[s][i]];
      count += 1;
    }
  });
  return sum / count;
}

/**
 * The same model in TensorFlow.js (`tf`, on whatever backend is set), its variables copied from
 * `params` (trainer.parameters(), one-hot positions): { loss(batch) → number, step(batch) → loss,
 * dispose() }. step is one Adam step and reads its loss back, as our step reports its own.
 */
export function tfjsModel(tf, size, params, learningRate = 0.01) {
  const { length: n, heads } = size.config;
  const fromMatrix = (m) => tf.variable(tf.tensor2d(Array.from(m.data), [m.rows, m.cols]));
  const E = fromMatrix(params.tokenEmbedding);
  const wQ = params.wQ.map(fromMatrix);
  const wK = params.wK.map(fromMatrix);
  const wV = params.wV.map(fromMatrix);
  const wOut = fromMatrix(params.wOut);
  const bOut = fromMatrix(params.bOut);
  const classes = params.wOut.cols;
  const positions = tf.keep(tf.cast(tf.oneHot(tf.range(0, n, 1, 'int32'), n), 'float32')); // (n, n)
  const divisor = Math.sqrt(size.config.dHead);
  const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);

  function lossOf(tokens, targets) {
    const batch = tokens.shape[0];
    // E[token] as one-hot(token)·E: gather's gradient (UnsortedSegmentSum) has no kernel in the
    // wasm backend, and the product is the same numbers on both backends
    const embedded = tf.matMul(tf.oneHot(tf.reshape(tokens, [-1]), E.shape[0]), E); // (B·n, d_token)
    const x = tf.concat([embedded, tf.tile(positions, [batch, 1])], 1); // (B·n, d_model)
    const project = (w) => tf.reshape(tf.matMul(x, w), [batch, n, -1]);
    const outs = [];
    for (let h = 0; h < heads; h++) {
      const q = project(wQ[h]);
      const k = project(wK[h]);
      const v = project(wV[h]);
      const weights = tf.softmax(tf.div(tf.matMul(q, tf.transpose(k, [0, 2, 1])), divisor));
      outs.push(tf.reshape(tf.matMul(weights, v), [batch * n, -1]));
    }
    const o = heads === 1 ? outs[0] : tf.concat(outs, 1);
    const logits = tf.add(tf.matMul(o, wOut), bOut);
    const picked = tf.mul(tf.logSoftmax(logits), tf.oneHot(tf.reshape(targets, [-1]), classes));
    return tf.neg(tf.mean(tf.sum(picked, 1)));
  }
  const asTensors = ({ tokens, targets }) => [
    tf.tensor2d(tokens, undefined, 'int32'),
    tf.tensor2d(targets, undefined, 'int32'),
  ];

  return {
    loss(batch) {
      return tf.tidy(() => lossOf(...asTensors(batch)).dataSync()[0]);
    },
    step(batch) {
      return tf.tidy(() => {
        const [tokens, targets] = asTensors(batch);
        return optimizer.minimize(() => lossOf(tokens, targets), true).dataSync()[0];
      });
    },
    dispose() {
      optimizer.dispose();
      tf.dispose([E, ...wQ, ...wK, ...wV, wOut, bOut, positions]);
    },
  };
}

/**
 * The gate: our loss and TensorFlow.js's on the same initial parameters and batch, and their
 * relative difference. { ours, theirs, relative, passed }.
 */
export function lossGate(tf, size, createTrainer) {
  const trainer = createTrainer(trainerConfig(size));
  const model = tfjsModel(tf, size, trainer.parameters());
  const batch = reverseBatch(size.config, BATCH, seededBelow(11));
  const ours = ourLoss(trainer, batch);
  const theirs = model.loss(batch);
  trainer.dispose();
  model.dispose();
  const relative = Math.abs(ours - theirs) / Math.abs(ours);
  return { ours, theirs, relative, passed: relative <= GATE_RELATIVE };
}

/**
 * Steps per second of `step(count)` (which runs count steps, maybe asynchronously) over at least
 * minMs, after warmMs of the same calls: a fresh wasm instance starts in V8's baseline compiler and
 * its optimized code arrives later, as does a JS peer's. The calls grow from 5 steps to maxChunk.
 * With cpuSeconds (a clock of CPU time, maybe async: Node's process, or Chromium's renderer
 * process), also the steps per CPU second: on a machine shared with other work, the wall clock
 * counts the time others held the core.
 */
export async function stepsPerSecond(
  step,
  { minMs = 1000, warmMs = 1000, maxChunk = 200, now = () => performance.now(), cpuSeconds = null } = {},
) {
  const timed = async (ms) => {
    let steps = 0;
    let chunk = 5;
    const start = now();
    const cpuStart = await cpuSeconds?.();
    while (now() - start < ms) {
      await step(chunk);
      steps += chunk;
      chunk = Math.min(chunk * 2, maxChunk);
    }
    const wall = steps / ((now() - start) / 1000);
    return cpuSeconds ? { wall, cpu: steps / ((await cpuSeconds()) - cpuStart) } : wall;
  };
  await timed(warmMs);
  return timed(minMs);
}

/** Median and spread (lowest, highest) of a list of numbers. */
export function summary(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], low: sorted[0], high: sorted[sorted.length - 1], runs: xs };
}
