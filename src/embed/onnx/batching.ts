import { endianness } from 'node:os';

/**
 * Length bucketing: sort a window of tokenized sentences by length, cut it into batches
 * of at most `batchSize` sentences and at most `tokenBudget` padded tokens (batch x
 * longest), so that padding stays small. Each batch remembers the original rows.
 */
export interface BatchPlan {
  /** Original row (index into the window) of each sentence in the batch. */
  rows: Int32Array;
  /** Padded length: the longest sentence of the batch. */
  seq: number;
}

export function planBatches(lengths: ArrayLike<number>, batchSize: number, tokenBudget: number, sort = true): BatchPlan[] {
  const n = lengths.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Longest first: the largest batch runs first, so memory trouble shows at once. Ties keep input order.
  if (sort) order.sort((a, b) => (lengths[b] as number) - (lengths[a] as number) || a - b);
  const plans: BatchPlan[] = [];
  let i = 0;
  while (i < n) {
    let seq = 0;
    let j = i;
    while (j < n && j - i < batchSize) {
      const len = lengths[order[j] as number] as number;
      const nextSeq = Math.max(seq, len);
      if (j > i && nextSeq * (j - i + 1) > tokenBudget) break;
      seq = nextSeq;
      j++;
    }
    plans.push({ rows: order.slice(i, j), seq });
    i = j;
  }
  return plans;
}

export interface PackedBatch {
  plan: BatchPlan;
  lengths: Int32Array;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
}

const littleEndian = endianness() === 'LE';

/**
 * Right-padded int64 tensors for one batch. Ids are written through an Int32 view of the
 * BigInt64 buffer (low word, little-endian): no BigInt per token.
 */
export function packBatch(plan: BatchPlan, tokens: readonly Int32Array[], padId: number): PackedBatch {
  const b = plan.rows.length;
  const seq = plan.seq;
  const inputIds = new BigInt64Array(b * seq);
  const attentionMask = new BigInt64Array(b * seq);
  const lengths = new Int32Array(b);
  if (littleEndian) {
    const ids32 = new Int32Array(inputIds.buffer);
    const mask32 = new Int32Array(attentionMask.buffer);
    for (let r = 0; r < b; r++) {
      const t = tokens[plan.rows[r] as number] as Int32Array;
      lengths[r] = t.length;
      const base = r * seq;
      for (let j = 0; j < t.length; j++) {
        ids32[(base + j) * 2] = t[j] as number;
        mask32[(base + j) * 2] = 1;
      }
      if (padId !== 0) for (let j = t.length; j < seq; j++) ids32[(base + j) * 2] = padId;
    }
  } else {
    for (let r = 0; r < b; r++) {
      const t = tokens[plan.rows[r] as number] as Int32Array;
      lengths[r] = t.length;
      const base = r * seq;
      for (let j = 0; j < seq; j++) {
        inputIds[base + j] = BigInt(j < t.length ? (t[j] as number) : padId);
        attentionMask[base + j] = j < t.length ? 1n : 0n;
      }
    }
  }
  return { plan, lengths, inputIds, attentionMask, tokenTypeIds: new BigInt64Array(b * seq) };
}
