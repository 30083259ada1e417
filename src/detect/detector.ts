/** Serialized detector state, stored inside the model file. Large arrays are base64 strings. */
export interface DetectorJSON {
  name: string;
  params: Record<string, unknown>;
  state: Record<string, unknown>;
}

/** Anomaly detector over row-major float32 matrices; higher score = more anomalous (as in the paper). */
export interface Detector {
  readonly name: string;
  fit(X: Float32Array, n: number, dims: number): void;
  score(X: Float32Array, n: number): Float32Array;
  toJSON(): DetectorJSON;
}
