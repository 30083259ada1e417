import { TadpoleError, usageError } from '../core/errors.js';
import { nearMisses } from '../core/suggest.js';
import { wrapWords } from '../core/wrap.js';

export type FlagType = 'string' | 'number' | 'int' | 'boolean' | 'list';

export interface FlagSpec {
  name: string;
  alias?: string;
  type: FlagType;
  default?: string | number | boolean | string[];
  choices?: readonly string[];
  /** Placeholder shown in help, e.g. FILE. */
  arg?: string;
  help: string;
  /** Numbers: the smallest and largest value accepted (inclusive), checked as the flag is read. */
  min?: number;
  max?: number;
  /** Help heading the flag is listed under (flags without one go under "Options"). */
  group?: string;
  /** What the value names, checked before the command reads anything (preflight.ts). */
  role?: 'input' | 'output-file' | 'output-dir';
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  flags: FlagSpec[];
  /** Extra help text after the flag table (examples, notes). */
  notes?: string;
  /** The positional words are input files, folders or globs (preflight.ts). */
  positionalInputs?: boolean;
}

export interface ParsedArgs {
  flags: Record<string, string | number | boolean | string[] | undefined>;
  positionals: string[];
  /** The flags (camelCase) the command line named, as against those holding their default. */
  given?: ReadonlySet<string>;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Flags: --name value, --name=value, -a value, booleans as --name / --no-name.
 * A `list` flag takes every following word up to the next flag ('-' alone is stdin, a word).
 * Keys in `flags` are camelCase.
 */
export function parseArgs(spec: CommandSpec, argv: string[]): ParsedArgs {
  const byName = new Map<string, FlagSpec>();
  for (const f of spec.flags) {
    byName.set(`--${f.name}`, f);
    if (f.alias) byName.set(`-${f.alias}`, f);
  }
  const flags: ParsedArgs['flags'] = {};
  for (const f of spec.flags) if (f.default !== undefined) flags[camel(f.name)] = Array.isArray(f.default) ? [...f.default] : f.default;
  const positionals: string[] = [];
  const isFlag = (w: string) => w.startsWith('-') && w !== '-' && !/^-\d/.test(w);
  let i = 0;
  const listSeen = new Set<string>();
  const given = new Set<string>();
  while (i < argv.length) {
    const word = argv[i++] as string;
    if (word === '--') {
      positionals.push(...argv.slice(i));
      break;
    }
    if (!isFlag(word)) {
      positionals.push(word);
      continue;
    }
    let name = word;
    let inline: string | undefined;
    const eq = word.indexOf('=');
    if (word.startsWith('--') && eq > 0) {
      name = word.slice(0, eq);
      inline = word.slice(eq + 1);
    }
    const f = byName.get(name);
    if (!f && name.startsWith('--no-')) {
      const pos = byName.get(`--${name.slice(5)}`);
      if (pos && pos.type === 'boolean') {
        flags[camel(pos.name)] = false;
        given.add(camel(pos.name));
        continue;
      }
    }
    if (!f) {
      const guesses = nearMisses(name, [...byName.keys()].filter((k) => k.startsWith('--')));
      const guess = guesses.length > 1 ? `${guesses.slice(0, -1).join(', ')} or ${guesses.at(-1) as string}` : guesses[0];
      throw usageError(`unknown option ${name} for 'tadpole ${spec.name}'${guess ? `; did you mean ${guess}?` : ''} (see 'tadpole ${spec.name} --help')`);
    }
    const key = camel(f.name);
    given.add(key);
    if (f.type === 'boolean') {
      if (inline !== undefined) flags[key] = !/^(false|0|no)$/i.test(inline);
      else flags[key] = true;
      continue;
    }
    if (f.type === 'list') {
      const values: string[] = listSeen.has(key) ? ((flags[key] as string[]) ?? []) : [];
      listSeen.add(key);
      if (inline !== undefined) values.push(...inline.split(',').filter(Boolean));
      else while (i < argv.length && !isFlag(argv[i] as string)) values.push(argv[i++] as string);
      if (values.length === 0) throw usageError(`option --${f.name} needs at least one ${f.arg ?? 'value'}`);
      flags[key] = values;
      continue;
    }
    const value = inline ?? argv[i++];
    if (value === undefined) throw usageError(`option --${f.name} needs a value (${f.arg ?? f.type})`);
    if (f.choices && !f.choices.includes(value)) {
      throw usageError(`invalid value "${value}" for --${f.name}; should be one of: ${f.choices.join(', ')}`);
    }
    if (f.type === 'number' || f.type === 'int') {
      const n = Number(value);
      if (!Number.isFinite(n) || (f.type === 'int' && !Number.isInteger(n))) {
        throw usageError(`option --${f.name} needs ${f.type === 'int' ? 'an integer' : 'a number'}, got "${value}"`);
      }
      checkRange(f, n);
      flags[key] = n;
    } else flags[key] = value;
  }
  return { flags, positionals, given };
}

function checkRange(f: FlagSpec, n: number): void {
  const low = f.min !== undefined && n < f.min;
  const high = f.max !== undefined && n > f.max;
  if (!low && !high) return;
  const want = f.min !== undefined && f.max !== undefined ? `between ${f.min} and ${f.max}` : f.min !== undefined ? `at least ${f.min}` : `at most ${f.max}`;
  throw usageError(`--${f.name} must be ${want}, got ${n}`);
}

/** Help for non-terminals (files, pipes, docs) is wrapped at this many columns. */
export const HELP_WIDTH = 100;

/** wrapWords, with one empty line for no words (a help row always has a first line). */
export function wrap(text: string, width: number): string[] {
  const lines = wrapWords(text, width);
  return lines.length ? lines : [''];
}

/** A command's help: flags grouped under their headings, text wrapped to `width` columns. */
export function helpText(spec: CommandSpec, width = HELP_WIDTH): string {
  width = Math.max(60, width);
  const lines = [...wrap(`tadpole ${spec.name}: ${spec.summary}`, width), '', ...wrap(`Usage: ${spec.usage}`, width), ''];
  const rows = spec.flags.map((f) => {
    const head = `${f.alias ? `-${f.alias}, ` : '    '}--${f.name}${f.type === 'boolean' ? '' : ` ${f.arg ?? (f.type === 'list' ? 'VALUE...' : 'VALUE')}`}`;
    let text = f.help;
    if (f.choices) text += ` (${f.choices.join('|')})`;
    if (f.default !== undefined && f.type !== 'boolean') text += ` [default: ${Array.isArray(f.default) ? f.default.join(',') : f.default}]`;
    return { group: f.group ?? 'Options', head, text };
  });
  rows.push({ group: spec.flags.some((f) => f.group === undefined) ? 'Options' : 'Other', head: '-h, --help', text: 'Show this help' });
  const column = Math.min(30, Math.max(...rows.map((r) => r.head.length)) + 2);
  const groups = [...new Set(rows.map((r) => r.group))];
  for (const group of groups) {
    lines.push(`${group}:`);
    for (const r of rows.filter((x) => x.group === group)) {
      const [first, ...rest] = wrap(r.text, width - 2 - column);
      const pad = ' '.repeat(column);
      // A flag too wide for the column gets a line of its own; its help starts below it.
      if (r.head.length + 2 > column) lines.push(`  ${r.head}`, `  ${pad}${first}`);
      else lines.push(`  ${r.head.padEnd(column)}${first}`);
      for (const t of rest) lines.push(`  ${pad}${t}`);
    }
    lines.push('');
  }
  lines.pop();
  if (spec.notes) lines.push('', ...wrapNotes(spec.notes.trimEnd(), width));
  return lines.join('\n') + '\n';
}

/**
 * Notes keep their own line breaks. A long example command is left whole so it can be copied;
 * any other long line is wrapped, an indented one under its own text (a table row such as
 * `  name    what it is` continues under `what it is`).
 */
function wrapNotes(notes: string, width: number): string[] {
  return notes.split('\n').flatMap((line) => {
    if (line.length <= width || /^\s+(tadpole|zcat|cat|npx|node) /.test(line)) return [line];
    const hang = /^(\s+\S+\s{2,})/.exec(line)?.[1]?.length ?? /^\s*/.exec(line)![0].length;
    const [first, ...rest] = wrap(line.slice(hang), width - hang);
    return [line.slice(0, hang) + first, ...rest.map((r) => ' '.repeat(hang) + r)];
  });
}

/** Typed getters for parsed flags. */
export function str(p: ParsedArgs, key: string): string | undefined {
  const v = p.flags[key];
  return v === undefined ? undefined : String(v);
}
export function num(p: ParsedArgs, key: string): number | undefined {
  const v = p.flags[key];
  return typeof v === 'number' ? v : undefined;
}
/** A number flag whose spec holds a default: parseArgs set it, given or not. */
export function numWithDefault(p: ParsedArgs, key: string): number {
  return withDefault(key, num(p, key));
}

/** A string flag whose spec holds a default. */
export function strWithDefault(p: ParsedArgs, key: string): string {
  return withDefault(key, str(p, key));
}

function withDefault<T>(key: string, v: T | undefined): T {
  if (v === undefined) throw new TadpoleError('TADPOLE_INTERNAL', `--${key} has no default in its flag spec`);
  return v;
}

export function bool(p: ParsedArgs, key: string): boolean {
  return p.flags[key] === true;
}
export function list(p: ParsedArgs, key: string): string[] {
  const v = p.flags[key];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}
