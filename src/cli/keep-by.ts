import { TadpoleError } from '../core/errors.js';
import type { FlagSpec, ParsedArgs } from './args.js';
import { DEFAULT_KEEP_BY, type KeepBy } from '../cut/exact.js';
import { recordedKeepBy } from '../run/run-dir.js';

export const keepByFlag: FlagSpec = {
  name: 'keep-by',
  type: 'string',
  choices: ['bytes', 'sentences'],
  default: DEFAULT_KEEP_BY,
  arg: 'UNIT',
  help: 'What --keep is a share of: the text (UTF-8 bytes) or its sentences; a run directory keeps the unit it recorded unless this names one',
};

/** filter and cut: --keep-by tokens too, counted by --tokenizer in pass 1. */
export const keepByCutFlag: FlagSpec = {
  ...keepByFlag,
  choices: ['bytes', 'sentences', 'tokens'],
  help: 'What --keep counts: the text (UTF-8 bytes), its sentences, or its tokens (needs --tokenizer when scoring); a run directory keeps the unit it recorded unless this names one',
};

export const tokenizerFlag: FlagSpec = {
  name: 'tokenizer',
  role: 'input',
  type: 'string',
  arg: 'FILE',
  help: "A Hugging Face tokenizer.json (the language model's): pass 1 counts each segment's tokens, for --keep-by tokens and the kept tokens in --stats",
};

export const keepFlag: FlagSpec = {
  name: 'keep',
  type: 'string',
  arg: 'AMOUNT',
  default: '0.2',
  help: 'What to keep, exact to within one segment: a share 0..1 of the --keep-by unit, a size of text (5GB, 500MB, 2.5GiB: KB MB GB TB are powers of 1000, KiB MiB GiB TiB of 1024), or with --keep-by tokens/sentences a count (2e9, 2B; K M B T: thousand, million, billion, trillion)',
};

const BYTE_UNITS: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };
const COUNT_UNITS: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, t: 1e12 };

/**
 * --keep as a number the cut takes: a share (0..1), or an amount of `keepBy` above 1 (whole
 * bytes, sentences or tokens). A byte size needs its unit, so that `--keep 20` (meant as 20%)
 * is refused rather than read as 20 bytes; a bare B is billions, never bytes.
 */
export function parseKeep(text: string, keepBy: KeepBy): number {
  const bad = (why: string) => new TadpoleError('TADPOLE_USAGE', `--keep ${text}: ${why}`);
  const m = /^\s*(\d*\.?\d+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) throw bad('--keep must be between 0 and 1 (a share), a size such as 5GB, 500MB or 2.5GiB, or with --keep-by tokens a count such as 2e9 or 2B');
  const value = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  if (unit === '') {
    if (value <= 1) return value;
    if (keepBy === 'bytes') throw bad('--keep must be between 0 and 1 (a share) or a size with its unit (5GB, 500MB, 2.5GiB)');
    return wholeAmount(Number.isInteger(value) ? value : NaN, bad);
  }
  const byteUnit = BYTE_UNITS[unit];
  if (byteUnit !== undefined) {
    if (keepBy !== 'bytes') throw bad(`a size in bytes keeps text by its bytes: drop --keep-by ${keepBy}, or give a count of ${keepBy} (2e9, 2B)`);
    return wholeAmount(value * byteUnit, bad);
  }
  const countUnit = COUNT_UNITS[unit];
  if (countUnit === undefined) throw bad(`unknown unit "${m[2]}": sizes take KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (of 1024); counts take K, M, B, T`);
  if (keepBy === 'bytes') throw bad(`a count (${unit === 'b' ? 'B is billions' : `${m[2]} is a multiple`}) is for --keep-by tokens or sentences; a size of text is written 5GB, 500MB`);
  return wholeAmount(value * countUnit, bad);
}

/** An amount is whole (the unit's nearest count) and above 1: 1 itself would read as the share "everything". */
function wholeAmount(x: number, bad: (why: string) => TadpoleError): number {
  const n = Math.round(x);
  if (!(n > 1 && Number.isSafeInteger(n))) throw bad(`an amount must be a whole count from 2 to ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

/** The warning when an amount to keep is more than the corpus holds: everything was kept. */
export function budgetShortfall(keep: number, keepBy: KeepBy, totals: Partial<Record<KeepBy, { total: number }>>): string | undefined {
  const total = totals[keepBy]?.total;
  if (keep <= 1 || total === undefined || total >= keep) return undefined;
  return `--keep asked for ${keep.toLocaleString('en-US')} ${keepBy}, more than the corpus holds (${total.toLocaleString('en-US')}): everything was kept`;
}

/** --keep, read in the unit it keeps by. */
export function keepFrom(args: ParsedArgs, keepBy: KeepBy): number {
  return parseKeep(String(args.flags.keep ?? keepFlag.default), keepBy);
}

/**
 * --keep-by: as named; else the unit the run in `runDir` recorded, so that a run resumed or
 * cut again never switches unit under its user; else the default.
 */
export function keepByFrom(args: ParsedArgs, runDir?: string): KeepBy {
  const named = args.given ? args.given.has('keepBy') : args.flags.keepBy !== undefined;
  if (named) return args.flags.keepBy as KeepBy;
  return (runDir ? recordedKeepBy(runDir) : undefined) ?? DEFAULT_KEEP_BY;
}
