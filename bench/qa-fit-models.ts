// Small linear models for bench/qa-fit.ts, fitted by full-batch gradient descent with Adam steps.

/** Adam over `steps` full-batch gradients; `gradient` fills `g` for the weights `w` and returns the loss. */
function adam(size: number, steps: number, gradient: (w: number[], g: number[]) => number, rate = 0.05): number[] {
  const w = new Array<number>(size).fill(0);
  const m = new Array<number>(size).fill(0);
  const v = new Array<number>(size).fill(0);
  const g = new Array<number>(size).fill(0);
  for (let t = 1; t <= steps; t++) {
    g.fill(0);
    gradient(w, g);
    for (let j = 0; j < size; j++) {
      m[j] = 0.9 * m[j]! + 0.1 * g[j]!;
      v[j] = 0.999 * v[j]! + 0.001 * g[j]! ** 2;
      w[j]! -= (rate * (m[j]! / (1 - 0.9 ** t))) / (Math.sqrt(v[j]! / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return w;
}

/**
 * A linear score over each group's candidates fitted so that the right ones come first: the loss is minus
 * the log of the softmax probability the right candidates hold together, plus a little L2.
 */
export function fitSoftmax(groups: { x: number[][]; y: boolean[] }[], size: number, l2 = 1e-3, steps = 600) {
  return adam(size, steps, (w, g) => {
    let loss = 0;
    for (const { x, y } of groups) {
      const s = x.map((f) => f.reduce((a, v, j) => a + v * w[j]!, 0));
      const top = Math.max(...s);
      const e = s.map((v) => Math.exp(v - top));
      const all = e.reduce((a, b) => a + b, 0);
      const good = e.reduce((a, v, k) => a + (y[k] ? v : 0), 0);
      loss -= Math.log(good / all);
      x.forEach((f, k) => {
        const p = e[k]! / all - (y[k] ? e[k]! / good : 0);
        for (let j = 0; j < size; j++) g[j]! += (p * f[j]!) / groups.length;
      });
    }
    for (let j = 0; j < size; j++) g[j]! += 2 * l2 * w[j]!;
    return loss / groups.length;
  });
}

/** Logistic regression: coefficients for each feature, then the intercept as the last element. */
export function fitLogistic(x: number[][], y: boolean[], l2 = 1e-3, steps = 1500): number[] {
  const size = (x[0]?.length ?? 0) + 1;
  return adam(size, steps, (w, g) => {
    let loss = 0;
    x.forEach((f, i) => {
      const z = f.reduce((a, v, j) => a + v * w[j]!, w[size - 1]!);
      const p = 1 / (1 + Math.exp(-z));
      const d = (p - (y[i] ? 1 : 0)) / x.length;
      loss -= Math.log(y[i] ? p + 1e-12 : 1 - p + 1e-12) / x.length;
      for (let j = 0; j < size - 1; j++) g[j]! += d * f[j]!;
      g[size - 1]! += d;
    });
    for (let j = 0; j < size - 1; j++) g[j]! += 2 * l2 * w[j]!;
    return loss;
  });
}
