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
 * Every known flag a mistyped one may have meant, the one the user most likely meant first:
 * a slip of one letter (--modle: --model); else the one that shares the most of its words, a
 * word matching its own abbreviation (--model-file: --model, not the --model-dir a few edits
 * away; --output-format: --out-format; --sample-general: --general-sample); else the longest
 * known flag it extends by whole words; else the closest by edit distance; else the flags that share its first word or begin with it
 * (--out: --output, --out-format), at most three, so a guess is offered only where it
 * narrows the choice.
 */
export function nearMisses(word: string, known: readonly string[]): string[] {
  const stem = (name: string) => name.replace(/^-+/, '').toLowerCase();
  const w = stem(word);
  const slip = known.find((k) => editDistance(w, stem(k)) <= 1);
  if (slip !== undefined) return [slip];
  const byWords = sharedWords(w, known.map(stem));
  if (byWords !== undefined) return [known[byWords] as string];
  const extended = known.filter((k) => w.startsWith(stem(k) + '-')).sort((a, b) => b.length - a.length)[0];
  if (extended !== undefined) return [extended];
  const near = closest(word, known);
  if (near !== undefined) return [near];
  const head = (name: string) => stem(name).split('-')[0] as string;
  if (head(word).length < 3) return [];
  const shared = known.filter((k) => head(k) === head(word) || (w.length >= 3 && stem(k).startsWith(w)));
  return shared.length <= 3 ? shared : [];
}

/**
 * The index of the one known name that shares the most words with `word` (a plural read as
 * its singular, a word of three letters or more as any word it begins: out, output), where
 * that says something: two words or more, or every word of the name.
 */
function sharedWords(word: string, known: readonly string[]): number | undefined {
  const words = (name: string) => name.split('-').filter(Boolean).map((x) => (x.length > 3 && x.endsWith('s') ? x.slice(0, -1) : x));
  const mine = new Set(words(word));
  let best: number | undefined;
  let bestScore = 0;
  let tie = false;
  known.forEach((k, i) => {
    const theirs = words(k);
    const score = theirs.filter((x) => [...mine].some((m) => m === x || (Math.min(m.length, x.length) >= 3 && (m.startsWith(x) || x.startsWith(m))))).length;
    if (score === 0 || (score < 2 && score < theirs.length)) return;
    if (score > bestScore) {
      best = i;
      bestScore = score;
      tie = false;
    } else if (score === bestScore) tie = true;
  });
  return tie ? undefined : best;
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
