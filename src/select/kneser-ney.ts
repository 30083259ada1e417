/**
 * Interpolated Kneser-Ney n-gram LM over hashed n-grams (Chen & Goodman 1999, one
 * discount per order estimated as D = n1 / (n1 + 2 n2)). N-grams are keyed by a u32 hash
 * of their token hashes, so the stored tables are sorted Int32 keys + counts (base64),
 * bounded by the fit text; collisions at 2^32 are negligible for fit sets of this size.
 */
import { b64ToI32, declaredCount, i32ToB64 } from '../core/b64.js';
import { TadpoleError } from '../core/errors.js';
import { hashPair, hashString, tokenize, tokenHashes } from '../text/ngrams.js';

const BOS = hashString('<s>');
const EOS = hashString('</s>');
const EMPTY = 0x12345678;

/** Per order k: count of each k-gram (raw at the top order, continuation below) and per context: total, distinct followers. */
interface OrderTable {
  gram: Map<number, number>;
  ctxTotal: Map<number, number>;
  ctxTypes: Map<number, number>;
  discount: number;
}

export interface KnJSON {
  order: number;
  vocab: number;
  tables: { gram: string; gramCount: string; ctx: string; ctxTotal: string; ctxTypes: string; discount: number }[];
}

/** Hashes of the k-gram ending at position i (positions index the padded sequence), for k = 1..order, and of their contexts. */
function padded(sentence: string, order: number): Uint32Array {
  const t = tokenHashes(tokenize(sentence));
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
      tables.push({ gram, ctxTotal, ctxTypes, discount });
    }
    return new KneserNeyLm(order, vocab.size, tables);
  }

  /** Cross-entropy in bits per token (including the end-of-sentence token). */
  crossEntropy(sentence: string): number {
    const seq = padded(sentence, this.order);
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
      const total = t.ctxTotal.get(ctx);
      if (total === undefined) continue; // unseen context: keep the lower-order estimate
      const c = t.gram.get(gramKey(seq, i, k)) ?? 0;
      const types = t.ctxTypes.get(ctx) ?? 0;
      p = Math.max(c - t.discount, 0) / total + ((t.discount * types) / total) * p;
    }
    return p;
  }

  toJSON(): KnJSON {
    return {
      order: this.order,
      vocab: this.vocab,
      tables: this.tables.map((t) => {
        const g = [...t.gram.entries()].sort((a, b) => a[0] - b[0]);
        const c = [...t.ctxTotal.entries()].sort((a, b) => a[0] - b[0]);
        return {
          gram: i32ToB64(Int32Array.from(g, (e) => e[0] | 0)),
          gramCount: i32ToB64(Int32Array.from(g, (e) => e[1])),
          ctx: i32ToB64(Int32Array.from(c, (e) => e[0] | 0)),
          ctxTotal: i32ToB64(Int32Array.from(c, (e) => e[1])),
          ctxTypes: i32ToB64(Int32Array.from(c, (e) => t.ctxTypes.get(e[0]) ?? 0)),
          discount: t.discount,
        };
      }),
    };
  }

  static fromJSON(j: KnJSON): KneserNeyLm {
    const order = declaredCount(j?.order, 'n-gram model "order"');
    const vocab = declaredCount(j.vocab, 'n-gram model "vocab"');
    if (!Array.isArray(j.tables) || j.tables.length !== order || j.tables.some((t) => typeof t?.discount !== 'number')) {
      throw new TadpoleError('TADPOLE_MODEL', `model file is damaged: n-gram model "tables": not ${order} tables with a discount each; refit the model or restore the file`);
    }
    const tables = j.tables.map((t) => {
      const gk = b64ToI32(t.gram, 'n-gram model "gram"');
      const gc = b64ToI32(t.gramCount, 'n-gram model "gramCount"', gk.length);
      const ck = b64ToI32(t.ctx, 'n-gram model "ctx"');
      const ct = b64ToI32(t.ctxTotal, 'n-gram model "ctxTotal"', ck.length);
      const cy = b64ToI32(t.ctxTypes, 'n-gram model "ctxTypes"', ck.length);
      const gram = new Map<number, number>();
      gk.forEach((k, i) => gram.set(k >>> 0, gc[i] as number));
      const ctxTotal = new Map<number, number>();
      const ctxTypes = new Map<number, number>();
      ck.forEach((k, i) => {
        ctxTotal.set(k >>> 0, ct[i] as number);
        ctxTypes.set(k >>> 0, cy[i] as number);
      });
      return { gram, ctxTotal, ctxTypes, discount: t.discount };
    });
    return new KneserNeyLm(order, vocab, tables);
  }
}
