import type { Pooling } from './pooling.js';

/** What every helper thread (helpers.ts) is started with. */
export interface HelperData {
  modelDir: string;
  maxTokens: number;
  dims: number;
  pooling: Pooling;
  normalize: boolean;
}

export type HelperRequest =
  | { type: 'tokenize'; id: number; sentences: string[] }
  /** hidden: [batch, seq, dims] token vectors of one run (Uint16Array: half bits); lengths: real tokens per row. */
  | { type: 'pool'; id: number; hidden: Float32Array | Uint16Array; seq: number; lengths: Int32Array };

export type HelperReply =
  /** Sentence i's ids are ids[ends[i-1] .. ends[i]) (ends[-1] = 0). */
  | { type: 'tokens'; id: number; ids: Int32Array; ends: Int32Array }
  /** [batch, dims] sentence vectors, in the batch's row order. */
  | { type: 'pooled'; id: number; vectors: Float32Array }
  | { type: 'error'; id: number; code?: string; message: string };
