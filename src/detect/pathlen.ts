/** Euler–Mascheroni constant. */
const EULER_GAMMA = 0.5772156649015329;

/** H(m), the m-th harmonic number: exact sum up to 256 terms, asymptotic series beyond (error < 1e-12). */
export function harmonic(m: number): number {
  if (m <= 0) return 0;
  if (m <= 256) {
    let h = 0;
    for (let i = 1; i <= m; i++) h += 1 / i;
    return h;
  }
  const inv = 1 / m;
  return Math.log(m) + EULER_GAMMA + 0.5 * inv - (inv * inv) / 12 + (inv * inv * inv * inv) / 120;
}

/**
 * c(n) = 2H(n-1) - 2(n-1)/n: average path length of an unsuccessful search in a binary
 * search tree of n points (Liu et al. 2008); c(1) = 0, c(2) = 1.
 */
export function averagePathLength(n: number): number {
  if (n <= 1) return 0;
  return 2 * harmonic(n - 1) - (2 * (n - 1)) / n;
}

/**
 * depth + c(leafSize) at every leaf of flat pre-order trees (left child of i is i+1, right
 * child right[i], split[i] < 0 marks a leaf), 0 elsewhere: scoring then only adds it.
 */
export function leafValues(f: { roots: Int32Array; feature: ArrayLike<number>; right: Int32Array; leafSize: ArrayLike<number> }): Float32Array {
  const value = new Float32Array(f.feature.length);
  const stack: number[] = [];
  for (const root of f.roots) {
    stack.push(root, 0);
    while (stack.length > 0) {
      const depth = stack.pop() as number;
      const node = stack.pop() as number;
      if ((f.feature[node] as number) < 0) value[node] = depth + averagePathLength(f.leafSize[node] as number);
      else stack.push(node + 1, depth + 1, f.right[node] as number, depth + 1);
    }
  }
  return value;
}
