// The straight line through a lab's timings on log–log axes (the cost lab's, the efficiency lab's):
// its slope says how the time grows with n — 1 when t ∝ n, 2 when t ∝ n².

/**
 * The least-squares slope of log t against log n: 2 when t ∝ n². Points { n, ms }; null with
 * fewer than two distinct n.
 */
export function fitSlope(points) {
  return fitLogLog(points)?.slope ?? null;
}

// The least-squares line through (log n, log ms), and how far its slope could move if each point
// were off by its own `spread` (the fraction its samples scattered above their minimum): the
// worst case of the slope's weights (log nᵢ − mean) / Σ(log nⱼ − mean)² times log(1 + spreadᵢ).
export function fitLogLog(points) {
  const xs = points.map((p) => Math.log(p.n)),
    ys = points.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, x) => a + x, 0) / xs.length,
    my = ys.reduce((a, y) => a + y, 0) / ys.length;
  let sxy = 0,
    sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i] - my);
    sxx += (x - mx) ** 2;
  });
  if (!(sxx > 0)) return null;
  const spread = xs.reduce((a, x, i) => a + (Math.abs(x - mx) * Math.log1p(points[i].spread ?? 0)) / sxx, 0);
  return { slope: sxy / sxx, spread };
}
