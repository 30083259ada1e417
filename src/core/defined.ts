/**
 * `o` without its undefined members: optional fields of a result (stats, records) are
 * absent rather than undefined, as JSON writes them, in one place instead of a conditional
 * spread at each.
 */
export function defined<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
