/**
 * Interpolated Kneser-Ney n-gram LM over hashed n-grams (Chen & Goodman 1999, one
 * discount per order estimated as D = n1 / (n1 + 2 n2)). N-grams are keyed by a u32 hash
 * of their token hashes, so the stored tables are sorted Int32 keys + counts (base64),
 * bounded by the fit text; collisions at 2^32 are negligible for fit sets of this size.
 */
import { b64ToI32, i32ToB64 } from '../core/b64.js';
import { hashPair, hashString, tokenize, tokenHashes } from '../text/ngrams.js';
import { IntTable } from './int-table.js';

const BOS = hashString('<s>');
const EOS = hashString('</s>');
const EMPTY = 0x12345678;

export interface KnJSON {
  order: number;
  vocab: number;
  tables: { gram: string; gramCount: string; ctx: string; ctxTotal: string; ctxTypes: string; discount: number }[];
}

/** Per order k, as stored: k-gram keys with counts (raw at the top order, continuation below); context keys with total count and distinct followers. */
interface OrderTable {
  gram: IntTable;
  gramCount: Int32Array;
  ctx: IntTable;
  ctxTotal: Int32Array;
  ctxTypes: Int32Array;
  discount: number;
  json: KnJSON['tables'][number];
}

function orderTable(j: KnJSON['tables'][number]): OrderTable {
  return { gram: new IntTable(b64ToI32(j.gram)), gramCount: b64ToI32(j.gramCount), ctx: new IntTable(b64ToI32(j.ctx)), ctxTotal: b64ToI32(j.ctxTotal), ctxTypes: b64ToI32(j.ctxTypes), discount: j.discount, json: j };
}

/** Token hashes of the sentence, padded for an LM of this order. */
export function padded(sentence: string, order: number): Uint32Array {
  return paddedHashes(tokenHashes(tokenize(sentence)), order);
}

/** Token hashes framed by order-1 BOS and one EOS. */
export function paddedHashes(t: Uint32Array, order: number): Uint32Array {
  const out = new Uint32Array(t.length + order);
  out.fill(BOS, 0, order - 1);
  out.set(t, order - 1);
  out[out.length - 1] = EOS;
  return out;
}

/** key of tokens seq[i-k+1..i] (k >= 1); the context of that k-gram is key(seq[i-k+1..i-1]). */
function gramKey(seq: Uint32Array, i: number, k: number): number {
  let h = EMPTY;
  for (let j = i - k + 1; j <= i; j++) h = hashPair(h, seq[j] as number);
  return h;
}

export class KneserNeyLm {
  private constructor(readonly order: number, private readonly vocab: number, private readonly tables: OrderTable[]) {}

  static fit(sentences: string[], order = 3): KneserNeyLm {
    // For each order k: distinct k-grams with their context key and their "suffix" (k-1)-gram key.
    const raw: Map<number, { n: number; ctx: number; suffix: number }>[] = [];
    for (let k = 0; k <= order; k++) raw.push(new Map());
    const vocab = new Set<number>();
    for (const s of sentences) {
      const seq = padded(s, order);
      for (let i = order - 1; i < seq.length; i++) {
        vocab.add(seq[i] as number);
        for (let k = 1; k <= order; k++) {
          const key = gramKey(seq, i, k);
          const e = raw[k]!.get(key);
          if (e) e.n++;
          else raw[k]!.set(key, { n: 1, ctx: k > 1 ? gramKey(seq, i - 1, k - 1) : EMPTY, suffix: k > 1 ? gramKey(seq, i, k - 1) : EMPTY });
        }
      }
    }
    // Continuation counts: N1+(. w) for every lower-order gram = number of distinct left extensions.
    const cont: Map<number, number>[] = [];
    for (let k = 0; k <= order; k++) cont.push(new Map());
    for (let k = 2; k <= order; k++) for (const e of raw[k]!.values()) cont[k - 1]!.set(e.suffix, (cont[k - 1]!.get(e.suffix) ?? 0) + 1);
    const tables: OrderTable[] = [];
    for (let k = 1; k <= order; k++) {
      const gram = new Map<number, number>();
      const ctxTotal = new Map<number, number>();
      const ctxTypes = new Map<number, number>();
      let n1 = 0;
      let n2 = 0;
      for (const [key, e] of raw[k]!) {
        const c = k === order ? e.n : (cont[k]!.get(key) ?? 0);
        if (c <= 0) continue;
        gram.set(key, c);
        ctxTotal.set(e.ctx, (ctxTotal.get(e.ctx) ?? 0) + c);
        ctxTypes.set(e.ctx, (ctxTypes.get(e.ctx) ?? 0) + 1);
        if (c === 1) n1++;
        else if (c === 2) n2++;
      }
      const discount = n1 + n2 > 0 && n1 > 0 ? Math.min(0.95, Math.max(0.1, n1 / (n1 + 2 * n2))) : 0.75;
      const g = [...gram.entries()].sort((a, b) => a[0] - b[0]);
      const c = [...ctxTotal.entries()].sort((a, b) => a[0] - b[0]);
      tables.push(
        orderTable({
          gram: i32ToB64(Int32Array.from(g, (e) => e[0] | 0)),
          gramCount: i32ToB64(Int32Array.from(g, (e) => e[1])),
          ctx: i32ToB64(Int32Array.from(c, (e) => e[0] | 0)),
          ctxTotal: i32ToB64(Int32Array.from(c, (e) => e[1])),
          ctxTypes: i32ToB64(Int32Array.from(c, (e) => ctxTypes.get(e[0]) ?? 0)),
          discount,
        }),
      );
    }
    return new KneserNeyLm(order, vocab.size, tables);
  }

  /** Cross-entropy in bits per token (including the end-of-sentence token). */
  crossEntropy(sentence: string): number {
    return this.crossEntropyPadded(padded(sentence, this.order));
  }

  /** Same, on a sequence from paddedHashes(…, this.order): lets two LMs share one tokenization. */
  crossEntropyPadded(seq: Uint32Array): number {
    let bits = 0;
    let n = 0;
    for (let i = this.order - 1; i < seq.length; i++) {
      bits -= Math.log2(this.prob(seq, i));
      n++;
    }
    return bits / n;
  }

  private prob(seq: Uint32Array, i: number): number {
    // Unknown words get the uniform floor 1 / (V + 1).
    let p = 1 / (this.vocab + 1);
    for (let k = 1; k <= this.order; k++) {
      const t = this.tables[k - 1]!;
      const ctx = k > 1 ? gramKey(seq, i - 1, k - 1) : EMPTY;
      const row = t.ctx.row(ctx);
      if (row < 0) continue; // unseen context: keep the lower-order estimate
      const total = t.ctxTotal[row] as number;
      const g = t.gram.row(hashPair(ctx, seq[i] as number));
      const c = g < 0 ? 0 : (t.gramCount[g] as number);
      const types = t.ctxTypes[row] as number;
      p = Math.max(c - t.discount, 0) / total + ((t.discount * types) / total) * p;
    }
    return p;
  }

  toJSON(): KnJSON {
    return { order: this.order, vocab: this.vocab, tables: this.tables.map((t) => t.json) };
  }

  static fromJSON(j: KnJSON): KneserNeyLm {
    return new KneserNeyLm(j.order, j.vocab, j.tables.map(orderTable));
  }
}
