import { usageError } from '../core/errors.js';

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
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  flags: FlagSpec[];
  /** Extra help text after the flag table (examples, notes). */
  notes?: string;
}

export interface ParsedArgs {
  flags: Record<string, string | number | boolean | string[] | undefined>;
  positionals: string[];
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
        continue;
      }
    }
    if (!f) {
      const known = spec.flags.map((s) => `--${s.name}`).join(', ');
      throw usageError(`unknown option ${name} for 'tadpole ${spec.name}' (known: ${known}); see 'tadpole ${spec.name} --help'`);
    }
    const key = camel(f.name);
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
      flags[key] = n;
    } else flags[key] = value;
  }
  return { flags, positionals };
}

export function helpText(spec: CommandSpec): string {
  const lines = [`tadpole ${spec.name}: ${spec.summary}`, '', `Usage: ${spec.usage}`, '', 'Options:'];
  const rows = spec.flags.map((f) => {
    const head = `${f.alias ? `-${f.alias}, ` : '    '}--${f.name}${f.type === 'boolean' ? '' : ` ${f.arg ?? (f.type === 'list' ? 'VALUE...' : 'VALUE')}`}`;
    let text = f.help;
    if (f.choices) text += ` (${f.choices.join('|')})`;
    if (f.default !== undefined && f.type !== 'boolean') text += ` [default: ${Array.isArray(f.default) ? f.default.join(',') : f.default}]`;
    return [head, text] as const;
  });
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.min(34, Math.max(...rows.map(([h]) => h.length)) + 2);
  for (const [h, t] of rows) lines.push(`  ${h.padEnd(width)}${t}`);
  if (spec.notes) lines.push('', spec.notes.trimEnd());
  return lines.join('\n') + '\n';
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
export function bool(p: ParsedArgs, key: string): boolean {
  return p.flags[key] === true;
}
export function list(p: ParsedArgs, key: string): string[] {
  const v = p.flags[key];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}
