// The mixes suite.js caches in $TMPDIR/tadpole-research/suite, for scripts that read them
// without refitting: the cache key is suite.js's (its CODE_KEY, then the spec).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadSpec } from '../../dist/eval/spec.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CODE_KEY = createHash('sha256')
  .update(['dist/text/sentences.js', 'dist/eval/mix.js', 'dist/eval/sources.js', 'dist/pipeline/segments.js', 'dist/io/sentences.js', 'dist/io/sample.js'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\0') + '\0segs carry doc')
  .digest('hex')
  .slice(0, 12);

/** The specs to read: the names given, else every spec of SUITE_DIR (default corpora/suite). */
export function specNames(argv) {
  const suite = join(ROOT, process.env.SUITE_DIR ?? 'corpora/suite');
  const names = argv.length > 0 ? argv : readdirSync(suite).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
  return names.map((name) => ({ name, file: join(suite, `${name}.json`) }));
}

/**
 * The spec and its cached mix ({ labels, inIdx, segs, sentences, task, general, generalGroups }),
 * or undefined when suite.js has not cached it yet.
 */
export async function cachedMix(file) {
  const spec = await loadSpec(file);
  const key = createHash('sha256').update(JSON.stringify(spec) + CODE_KEY).digest('hex').slice(0, 12);
  const cache = join(tmpdir(), 'tadpole-research', 'suite', `${spec.name}-${key}`, 'cache.json');
  return existsSync(cache) ? { spec, c: JSON.parse(readFileSync(cache, 'utf8')) } : { spec };
}
