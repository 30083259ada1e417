/** What a model file records about the embedder it was fitted with; `filter` refuses a mismatch. */
export interface EmbedderFingerprint {
  kind: string;
  dims: number;
  [key: string]: unknown;
}

/** Sentences in, row-major float32 vectors out (n * dims). */
export interface Embedder {
  readonly dims: number;
  readonly fingerprint: EmbedderFingerprint;
  embed(sentences: string[]): Promise<Float32Array>;
  dispose(): Promise<void>;
}
