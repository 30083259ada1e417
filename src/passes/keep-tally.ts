/** The counts a pass that writes kept text keeps (the `--stats` blocks). */
export interface KeepTally {
  documents: { total: number; withKept: number };
  segments: { total: number; kept: number };
  sentences: { total: number; kept: number };
  bytes: { total: number; kept: number };
}

export function emptyTally(): KeepTally {
  return { documents: { total: 0, withKept: 0 }, segments: { total: 0, kept: 0 }, sentences: { total: 0, kept: 0 }, bytes: { total: 0, kept: 0 } };
}

/** Adds `from`'s counts to `into` (ranges of one input, tallied apart). */
export function addTally(into: KeepTally, from: KeepTally): void {
  into.documents.total += from.documents.total;
  into.documents.withKept += from.documents.withKept;
  for (const k of ['segments', 'sentences', 'bytes'] as const) {
    into[k].total += from[k].total;
    into[k].kept += from[k].kept;
  }
}
