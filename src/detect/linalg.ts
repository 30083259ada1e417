/** Small dense linear algebra for the covariance-based detectors (float64, row-major). */

/** Column means of an n x dims row-major matrix. */
export function columnMeans(X: Float32Array, n: number, dims: number): Float64Array {
  const mean = new Float64Array(dims);
  for (let i = 0; i < n; i++) {
    const base = i * dims;
    for (let d = 0; d < dims; d++) mean[d] = (mean[d] as number) + (X[base + d] as number);
  }
  for (let d = 0; d < dims; d++) mean[d] = (mean[d] as number) / Math.max(1, n);
  return mean;
}

/**
 * Covariance (1/divisor) Σ (x-μ)(x-μ)^T as a full symmetric dims x dims matrix.
 * Accumulates the upper triangle row by row: n·dims²/2 multiply-adds.
 */
export function covariance(X: Float32Array, n: number, dims: number, mean: Float64Array, divisor: number): Float64Array {
  const C = new Float64Array(dims * dims);
  const xc = new Float64Array(dims);
  for (let i = 0; i < n; i++) {
    const base = i * dims;
    for (let d = 0; d < dims; d++) xc[d] = (X[base + d] as number) - (mean[d] as number);
    for (let a = 0; a < dims; a++) {
      const va = xc[a] as number;
      if (va === 0) continue;
      const row = a * dims;
      for (let b = a; b < dims; b++) C[row + b] = (C[row + b] as number) + va * (xc[b] as number);
    }
  }
  for (let a = 0; a < dims; a++) {
    for (let b = a; b < dims; b++) {
      const v = (C[a * dims + b] as number) / divisor;
      C[a * dims + b] = v;
      C[b * dims + a] = v;
    }
  }
  return C;
}

export interface Eigen {
  /** Descending. */
  values: Float64Array;
  /** Row k is the unit eigenvector of values[k]. */
  vectors: Float64Array;
}

/**
 * Eigen-decomposition of a symmetric matrix: Householder tridiagonalisation then the
 * implicit QL method (tred2/tql2, as in EISPACK and JAMA). O(n³), exact to rounding.
 */
export function symmetricEigen(A: Float64Array, n: number): Eigen {
  const V = Float64Array.from(A);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  tred2(V, d, e, n);
  // tql2 rotates pairs of eigenvector columns; transposed, they are contiguous rows.
  const W = transpose(V, n);
  tql2(W, d, e, n);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (d[b] as number) - (d[a] as number) || a - b);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, k) => {
    values[k] = d[src] as number;
    vectors.set(W.subarray(src * n, src * n + n), k * n);
  });
  return { values, vectors };
}

function transpose(M: Float64Array, n: number): Float64Array {
  const T = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) T[j * n + i] = M[i * n + j] as number;
  return T;
}

function tred2(V: Float64Array, d: Float64Array, e: Float64Array, n: number): void {
  const at = (i: number, j: number) => V[i * n + j] as number;
  for (let j = 0; j < n; j++) d[j] = at(n - 1, j);
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k] as number);
    if (scale === 0) {
      e[i] = d[i - 1] as number;
      for (let j = 0; j < i; j++) {
        d[j] = at(i - 1, j);
        V[i * n + j] = 0;
        V[j * n + i] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] = (d[k] as number) / scale;
        h += (d[k] as number) * (d[k] as number);
      }
      let f = d[i - 1] as number;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j] as number;
        V[j * n + i] = f;
        g = (e[j] as number) + at(j, j) * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += at(k, j) * (d[k] as number);
          e[k] = (e[k] as number) + at(k, j) * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] = (e[j] as number) / h;
        f += (e[j] as number) * (d[j] as number);
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] = (e[j] as number) - hh * (d[j] as number);
      for (let j = 0; j < i; j++) {
        f = d[j] as number;
        g = e[j] as number;
        for (let k = j; k <= i - 1; k++) V[k * n + j] = at(k, j) - (f * (e[k] as number) + g * (d[k] as number));
        d[j] = at(i - 1, j);
        V[i * n + j] = 0;
      }
    }
    d[i] = h;
  }
  for (let i = 0; i < n - 1; i++) {
    V[(n - 1) * n + i] = at(i, i);
    V[i * n + i] = 1;
    const h = d[i + 1] as number;
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = at(k, i + 1) / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += at(k, i + 1) * at(k, j);
        for (let k = 0; k <= i; k++) V[k * n + j] = at(k, j) - g * (d[k] as number);
      }
    }
    for (let k = 0; k <= i; k++) V[k * n + i + 1] = 0;
  }
  for (let j = 0; j < n; j++) {
    d[j] = at(n - 1, j);
    V[(n - 1) * n + j] = 0;
  }
  V[(n - 1) * n + (n - 1)] = 1;
  e[0] = 0;
}

/** W holds eigenvectors as rows (the transpose of JAMA's V). */
function tql2(W: Float64Array, d: Float64Array, e: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i] as number;
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = Math.pow(2, -52);
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l] as number) + Math.abs(e[l] as number));
    let m = l;
    while (m < n) {
      if (Math.abs(e[m] as number) <= eps * tst1) break;
      m++;
    }
    if (m > l) {
      let iter = 0;
      do {
        if (++iter > 60) throw new Error('symmetricEigen: no convergence');
        let g = d[l] as number;
        let p = ((d[l + 1] as number) - g) / (2 * (e[l] as number));
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = (e[l] as number) / (p + r);
        d[l + 1] = (e[l] as number) * (p + r);
        const dl1 = d[l + 1] as number;
        let h = g - (d[l] as number);
        for (let i = l + 2; i < n; i++) d[i] = (d[i] as number) - h;
        f += h;
        p = d[m] as number;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1] as number;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * (e[i] as number);
          h = c * p;
          r = Math.hypot(p, e[i] as number);
          e[i + 1] = s * r;
          s = (e[i] as number) / r;
          c = p / r;
          p = c * (d[i] as number) - s * g;
          d[i + 1] = h + s * (c * g + s * (d[i] as number));
          const a = i * n;
          const b = (i + 1) * n;
          for (let k = 0; k < n; k++) {
            const hk = W[b + k] as number;
            const wk = W[a + k] as number;
            W[b + k] = s * wk + c * hk;
            W[a + k] = c * wk - s * hk;
          }
        }
        p = (-s * s2 * c3 * el1 * (e[l] as number)) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l] as number) > eps * tst1);
    }
    d[l] = (d[l] as number) + f;
    e[l] = 0;
  }
}

/** Cholesky factor L (row-major lower triangle, zeros above) of a symmetric positive-definite matrix. */
export function cholesky(A: Float64Array, n: number): Float64Array {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * n + j] as number;
      for (let k = 0; k < j; k++) s -= (L[i * n + k] as number) * (L[j * n + k] as number);
      if (i === j) {
        if (!(s > 0)) throw new Error(`cholesky: matrix not positive definite at ${i}`);
        L[i * n + i] = Math.sqrt(s);
      } else L[i * n + j] = s / (L[j * n + j] as number);
    }
  }
  return L;
}
