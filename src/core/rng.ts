/** Seeded PRNG (mulberry32): deterministic across platforms, fast, good enough for sampling. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Standard normal (Box-Muller). */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  /** k distinct indices from [0, n), in ascending order when sorted is true. */
  sample(n: number, k: number): number[] {
    if (k >= n) return Array.from({ length: n }, (_, i) => i);
    const chosen = new Set<number>();
    // Floyd's algorithm: k draws, no rejection loop.
    for (let j = n - k; j < n; j++) {
      const t = this.int(j + 1);
      chosen.add(chosen.has(t) ? j : t);
    }
    return [...chosen].sort((a, b) => a - b);
  }
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = xs[i] as T;
      xs[i] = xs[j] as T;
      xs[j] = t;
    }
    return xs;
  }
}
