/** "Did you mean …?" for a mistyped flag or command: the closest known name, if close enough. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  // A third of the word's length: --modle → --model, --kep → --keep, but not --x → --keep.
  const allowed = Math.max(1, Math.floor(word.replace(/^-+/, '').length / 3));
  if (best !== undefined && bestDistance <= allowed) return best;
  // A prefix of exactly one known name (--thresh → --threshold).
  const prefixed = known.filter((k) => word.length >= 4 && k.startsWith(word));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/**
 * Every known flag a mistyped one may have meant: the closest by edit distance, else the
 * flags that share its first word or begin with it (--keep-share: --keep, --keep-by), at most
 * three, so a guess is offered only where it narrows the choice.
 */
export function nearMisses(word: string, known: readonly string[]): string[] {
  const near = closest(word, known);
  if (near !== undefined) return [near];
  const stem = (name: string) => name.replace(/^-+/, '').toLowerCase();
  const head = (name: string) => stem(name).split('-')[0] as string;
  const w = stem(word);
  if (head(word).length < 3) return [];
  const shared = known.filter((k) => head(k) === head(word) || (w.length >= 3 && stem(k).startsWith(w)));
  return shared.length <= 3 ? shared : [];
}

/** Damerau–Levenshtein (optimal string alignment): a swap of two letters counts once. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
