// plain.js: one attention head in plain JavaScript over Float32Arrays, i-k-j loops, no Wasm.
// The baseline `make bench` compares the Wasm core against. Shapes as in the project legend.

// C [n, p] = A [n, k] · B [k, p]
function matmul(C, A, B, n, k, p) {
  C.fill(0);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < k; t++) {
      const a = A[i * k + t];
      for (let j = 0; j < p; j++) C[i * p + j] += a * B[t * p + j];
    }
  }
}

/** Causal self-attention head: returns { Q, K, V, S, A, O } as Float32Arrays. */
export function plainHead(X, Wq, Wk, Wv, n, d, dk, dv) {
  const Q = new Float32Array(n * dk), K = new Float32Array(n * dk), V = new Float32Array(n * dv);
  matmul(Q, X, Wq, n, d, dk); matmul(K, X, Wk, n, d, dk); matmul(V, X, Wv, n, d, dv);
  const Kt = new Float32Array(dk * n);
  for (let j = 0; j < n; j++) for (let c = 0; c < dk; c++) Kt[c * n + j] = K[j * dk + c];
  const S = new Float32Array(n * n), A = new Float32Array(n * n), O = new Float32Array(n * dv);
  matmul(S, Q, Kt, n, dk, n);
  const scale = 1 / Math.sqrt(dk);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) { S[i * n + j] *= scale; if (j <= i && S[i * n + j] > max) max = S[i * n + j]; }
    let sum = 0;
    for (let j = 0; j <= i; j++) { const e = Math.exp(S[i * n + j] - max); A[i * n + j] = e; sum += e; }
    for (let j = 0; j <= i; j++) A[i * n + j] /= sum;
  }
  matmul(O, A, V, n, n, dv);
  return { Q, K, V, S, A, O };
}
