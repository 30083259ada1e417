/** Small dense linear algebra for the randomized SVD (row-major Float64Array matrices). */

/** Orthonormalise the columns of an m x l row-major matrix in place (modified Gram-Schmidt). */
export function orthonormalizeColumns(M: Float64Array, m: number, l: number): void {
  for (let j = 0; j < l; j++) {
    for (let p = 0; p < j; p++) {
      let dot = 0;
      for (let r = 0; r < m; r++) dot += (M[r * l + j] as number) * (M[r * l + p] as number);
      for (let r = 0; r < m; r++) M[r * l + j] = (M[r * l + j] as number) - dot * (M[r * l + p] as number);
    }
    let norm = 0;
    for (let r = 0; r < m; r++) norm += (M[r * l + j] as number) ** 2;
    const inv = norm > 1e-24 ? 1 / Math.sqrt(norm) : 0;
    for (let r = 0; r < m; r++) M[r * l + j] = (M[r * l + j] as number) * inv;
  }
}

/**
 * Eigen-decomposition of a symmetric n x n matrix by cyclic Jacobi rotations.
 * Returns eigenvalues (descending) and eigenvectors as columns of an n x n row-major matrix.
 */
export function symmetricEigen(S: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const A = Float64Array.from(S);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += (A[p * n + q] as number) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const app = A[p * n + p] as number;
        const aqq = A[q * n + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p] as number;
          const akq = A[k * n + q] as number;
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k] as number;
          const aqk = A[q * n + k] as number;
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p] as number;
          const vkq = V[k * n + q] as number;
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (A[b * n + b] as number) - (A[a * n + a] as number));
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = A[src * n + src] as number;
    for (let k = 0; k < n; k++) vectors[k * n + dst] = V[k * n + src] as number;
  });
  return { values, vectors };
}

/** L2-normalise each row of an n x d float32 matrix in place (zero rows stay zero). */
export function normalizeRows(X: Float32Array, n: number, d: number): Float32Array {
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += (X[i * d + j] as number) ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < d; j++) X[i * d + j] = (X[i * d + j] as number) * inv;
  }
  return X;
}
