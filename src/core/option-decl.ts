/**
 * Declared options: every method and detector lists the `--option KEY=VALUE` keys it reads,
 * once, with type, default, range and a line of help. Reading, validation, the unknown-key
 * error (with a suggestion), the unread-key warning and `fit --method X --help` all come from
 * these lists, so an option cannot be read without being documented, nor documented with a
 * default other than the one the fit uses.
 */
import { TadpoleError } from './errors.js';
import { editDistance } from './suggest.js';
import { wrapWords } from './wrap.js';

export type OptionType = 'number' | 'int' | 'string' | 'choice' | 'boolean';

export interface OptionDecl {
  readonly name: string;
  readonly type: OptionType;
  /** The value when unset; absent where the fit picks it from the data (then `defaultText` says how). */
  readonly default?: number | string | boolean;
  readonly defaultText?: string;
  readonly help: string;
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** The bounds themselves are outside the range. */
  readonly minOpen?: boolean;
  readonly maxOpen?: boolean;
  /** A research knob the default does not use: listed under "Experimental" in the help. */
  readonly experimental?: boolean;
}

/** Whose options these are, for messages: `method contrast`, `detector lof`. */
export interface OptionOwner {
  readonly label: string;
  readonly options: readonly OptionDecl[];
}

function usage(message: string): TadpoleError {
  return new TadpoleError('TADPOLE_USAGE', message);
}

/** The range in words: `an integer >= 1`, `a number in (0, 1)`. */
export function describeRange(d: OptionDecl): string {
  if (d.type === 'choice') return `one of: ${(d.choices ?? []).join(', ')}`;
  if (d.type === 'boolean') return 'true or false';
  if (d.type === 'string') return 'text';
  const what = d.type === 'int' ? 'an integer' : 'a number';
  if (d.min !== undefined && d.max !== undefined) return `${what} in ${d.minOpen ? '(' : '['}${d.min}, ${d.max}${d.maxOpen ? ')' : ']'}`;
  if (d.min !== undefined) return `${what} ${d.minOpen ? '>' : '>='} ${d.min}`;
  if (d.max !== undefined) return `${what} ${d.maxOpen ? '<' : '<='} ${d.max}`;
  return what;
}

/** A raw value (a CLI string, a component-spec string or an API value) checked against its declaration. */
export function parseOptionValue(owner: OptionOwner, d: OptionDecl, raw: unknown): number | string | boolean {
  const bad = (): TadpoleError => usage(`invalid ${d.name} ${JSON.stringify(raw)} for ${owner.label}: should be ${describeRange(d)}`);
  switch (d.type) {
    case 'number':
    case 'int': {
      const v = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(v) || (d.type === 'int' && !Number.isInteger(v))) throw bad();
      if (d.min !== undefined && (d.minOpen ? v <= d.min : v < d.min)) throw bad();
      if (d.max !== undefined && (d.maxOpen ? v >= d.max : v > d.max)) throw bad();
      return v;
    }
    case 'boolean': {
      if (raw === true || raw === 'true' || raw === 'on' || raw === 1 || raw === '1') return true;
      if (raw === false || raw === 'false' || raw === 'off' || raw === 0 || raw === '0') return false;
      throw bad();
    }
    case 'choice': {
      const v = String(raw);
      if (!(d.choices ?? []).includes(v)) throw bad();
      return v;
    }
    case 'string':
      return String(raw);
  }
}

/** The known names closest to `key` (case aside, within a third of its length), best first. */
export function suggestNames(key: string, known: readonly string[]): string[] {
  const k = key.toLowerCase();
  const limit = Math.max(1, Math.floor(k.length / 3));
  return known
    .map((n) => ({ n, d: n.toLowerCase() === k ? 0 : editDistance(k, n.toLowerCase()) }))
    .filter((x) => x.d <= limit || x.n.toLowerCase().startsWith(k) || k.startsWith(x.n.toLowerCase()))
    .sort((x, y) => x.d - y.d)
    .map((x) => x.n);
}

export function unknownOptionError(key: string, owners: readonly OptionOwner[], helpHint?: string): TadpoleError {
  const known = owners.flatMap((o) => o.options.map((d) => d.name));
  const near = suggestNames(key, known);
  const where = owners.map((o) => o.label).join(' with ');
  const hint = near.length ? `; did you mean ${near.slice(0, 2).map((n) => `'${n}'`).join(' or ')}?` : known.length ? `; it takes: ${known.join(', ')}` : '; it takes no options';
  return usage(`unknown option '${key}' for ${where}${hint}${helpHint ? ` (${helpHint})` : ''}`);
}

/** Every given key declared by one of the owners, and its value in range; the first fault throws. */
export function checkOptions(owners: readonly OptionOwner[], options: Record<string, unknown>, helpHint?: string): void {
  for (const [key, raw] of Object.entries(options)) {
    const owner = owners.find((o) => o.options.some((d) => d.name === key));
    if (!owner) throw unknownOptionError(key, owners, helpHint);
    if (raw === undefined) continue;
    parseOptionValue(owner, owner.options.find((d) => d.name === key) as OptionDecl, raw);
  }
}

/**
 * Reads declared options: `read.number('rate')` is the given value checked against its
 * declaration, or the declared default; `read.maybeNumber` leaves an unset option undefined
 * for a default the fit works out itself. Reading an undeclared name is a bug, not a user error.
 */
export function optionReader(owner: OptionOwner, options: Record<string, unknown>) {
  const decl = (name: string, types: readonly OptionType[]): OptionDecl => {
    const d = owner.options.find((x) => x.name === name);
    if (!d || !types.includes(d.type)) throw new TadpoleError('TADPOLE_INTERNAL', `${owner.label} reads option ${name}, which it does not declare as ${types.join('/')}`);
    return d;
  };
  const given = (d: OptionDecl): number | string | boolean | undefined => (options[d.name] === undefined ? undefined : parseOptionValue(owner, d, options[d.name]));
  const withDefault = <T>(d: OptionDecl, v: T | undefined): T => {
    if (v !== undefined) return v;
    if (d.default === undefined) throw new TadpoleError('TADPOLE_INTERNAL', `${owner.label}: option ${d.name} has no declared default`);
    return d.default as T;
  };
  return {
    number: (name: string): number => {
      const d = decl(name, ['number', 'int']);
      return withDefault(d, given(d) as number | undefined);
    },
    maybeNumber: (name: string): number | undefined => given(decl(name, ['number', 'int'])) as number | undefined,
    string: <T extends string = string>(name: string): T => {
      const d = decl(name, ['string', 'choice']);
      return withDefault(d, given(d) as T | undefined);
    },
    maybeString: <T extends string = string>(name: string): T | undefined => given(decl(name, ['string', 'choice'])) as T | undefined,
    boolean: (name: string): boolean => {
      const d = decl(name, ['boolean']);
      return withDefault(d, given(d) as boolean | undefined);
    },
  };
}

export function defaultOf(d: OptionDecl): string {
  return d.default !== undefined ? String(d.default) : (d.defaultText ?? 'unset');
}

/** Words of `text` in lines of at most `width` columns, each after `indent`. */
export function wrapText(text: string, indent: string, width = 98): string[] {
  return wrapWords(text, width - indent.length).map((line) => indent + line);
}

/** Help lines for one owner's options: `  name=DEFAULT  (range)`, the help below; research knobs apart. */
export function formatOptionHelp(owner: OptionOwner, indent = '  '): string[] {
  const entry = (d: OptionDecl, at: string): string[] => {
    const head = `${at}${d.name}=${defaultOf(d)}`;
    const range = d.type === 'string' ? '' : `(${describeRange(d)})`;
    // The range beside the default where it fits, else first in the help.
    if (head.length + 2 + range.length <= 98) return [`${head}${range ? `  ${range}` : ''}`, ...wrapText(d.help, `${at}    `)];
    return [head, ...wrapText(`${range} ${d.help}`, `${at}    `)];
  };
  const plain = owner.options.filter((d) => !d.experimental);
  const research = owner.options.filter((d) => d.experimental);
  if (owner.options.length === 0) return [`${indent}(no options)`];
  return [...plain.flatMap((d) => entry(d, indent)), ...(research.length ? ['', `${indent}Experimental (research knobs the default leaves alone):`, ...research.flatMap((d) => entry(d, indent))] : [])];
}
