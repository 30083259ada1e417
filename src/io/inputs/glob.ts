/** Quoted globs (`'shards/*.jsonl.zst'`, `'data/**\/part-*.parquet'`): Node 20 has no fs.glob. */

export function hasGlob(s: string): boolean {
  return /[*?[]/.test(s);
}

/** The folder to walk: the pattern's leading path segments without glob characters. */
export function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const base: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (hasGlob(p)) break;
    base.push(p);
  }
  if (base.length === 0) return '.';
  const joined = base.join('/');
  return joined === '' ? '/' : joined;
}

/** `*` and `?` stay inside one path segment, `**` spans segments, `[...]` is a character class. */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        re += slash ? '(?:[^/]*/)*' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
        re += body.startsWith('!') ? `[^${body.slice(1)}]` : `[${body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
