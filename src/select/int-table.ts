/**
 * Read-only open-addressing table from u32 hash keys to a row index. A Map<number, …> keyed
 * by u32 hashes boxes every key above 2^30 (V8 small integers are 31-bit), and on the
 * Moore-Lewis scorer that boxing cost 18% of the time in GC plus slow lookups: this table
 * made scoring ~4x faster (scripts/research/README.md). Keys are already well-mixed hashes,
 * so the low bits index the table directly; linear probing; load factor <= 0.5.
 */
export class IntTable {
  private readonly mask: number;
  private readonly slotKey: Int32Array;
  /** 1 + row of the key in slot s; 0 = empty. */
  private readonly slotRow: Int32Array;

  constructor(keys: Int32Array) {
    let cap = 8;
    while (cap < 2 * keys.length) cap *= 2;
    this.mask = cap - 1;
    this.slotKey = new Int32Array(cap);
    this.slotRow = new Int32Array(cap);
    for (let r = 0; r < keys.length; r++) {
      const k = keys[r] as number;
      let s = k & this.mask;
      while (this.slotRow[s] !== 0) s = (s + 1) & this.mask;
      this.slotKey[s] = k;
      this.slotRow[s] = r + 1;
    }
  }

  /** Row of the key (compared as int32), or -1 when absent. */
  row(key: number): number {
    const k = key | 0;
    let s = k & this.mask;
    for (;;) {
      const r = this.slotRow[s] as number;
      if (r === 0) return -1;
      if (this.slotKey[s] === k) return r - 1;
      s = (s + 1) & this.mask;
    }
  }
}
