import { usageError } from '../core/errors.js';

/** Detector options arrive from code (numbers) or the CLI (strings); both are accepted here. */
export type DetectorOptions = { seed: number; [k: string]: unknown };

function asNumber(detector: string, key: string, v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw usageError(`detector ${detector}: option ${key} needs a number, got ${JSON.stringify(v)}`);
  return n;
}

export function intOption(detector: string, opts: Record<string, unknown>, key: string, dflt: number, min: number): number {
  const v = opts[key];
  if (v === undefined) return dflt;
  const n = asNumber(detector, key, v);
  if (!Number.isInteger(n) || n < min) throw usageError(`detector ${detector}: option ${key} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return n;
}

export function numOption(detector: string, opts: Record<string, unknown>, key: string, dflt: number, lo: number, hi: number): number {
  const v = opts[key];
  if (v === undefined) return dflt;
  const n = asNumber(detector, key, v);
  if (n < lo || n > hi) throw usageError(`detector ${detector}: option ${key} must be in [${lo}, ${hi}], got ${JSON.stringify(v)}`);
  return n;
}

export function choiceOption<T extends string>(detector: string, opts: Record<string, unknown>, key: string, dflt: T, choices: readonly T[]): T {
  const v = opts[key];
  if (v === undefined) return dflt;
  if (typeof v !== 'string' || !(choices as readonly string[]).includes(v)) {
    throw usageError(`detector ${detector}: invalid ${key} ${JSON.stringify(v)}; should be one of: ${choices.join(', ')}`);
  }
  return v as T;
}

/** Rejects option names a detector does not know, so a typo is not silently ignored. */
export function checkKnown(detector: string, opts: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(opts)) {
    if (k === 'seed' || known.includes(k)) continue;
    throw usageError(`detector ${detector}: unknown option "${k}"; should be one of: ${known.join(', ')}`);
  }
}
