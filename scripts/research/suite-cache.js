// Where suite.js caches its mixes ($TMPDIR/tadpole-research/suite), for suite.js itself and the
// scripts that read its mixes without refitting (oracle.js, separability.js, task-tokens.js).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { loadSpec } from '../../dist/eval/spec.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The cache is keyed on the spec and the code that builds and splits the mix: a cache built
 * by an older splitter gave a suite table 0.4 points off the eval's (mean 88.2 against 88.6)
 * with nothing to say it was stale.
 */
const CODE_KEY = createHash('sha256')
  .update(['dist/text/sentences.js', 'dist/eval/mix.js', 'dist/eval/sources.js', 'dist/threads/segment-scores.js', 'dist/io/sentences.js', 'dist/io/sample.js'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\0') + '\0segs carry doc')
  .digest('hex')
  .slice(0, 12);

/** A copy of a keep-"share" spec (the scarce suite) with a placeholder keep, for a loader that wants a number. */
export function shareSpecCopy(path) {
  const dir = join(tmpdir(), 'tadpole-research', 'share-specs');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, path.split('/').pop());
  writeFileSync(out, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), keep: 0.01 }));
  return out;
}

/**
 * A suite spec and whether it keeps "share" (the scarce suite: the in-domain share of the mix's
 * sentences, known once the mix is built; loaded from shareSpecCopy meanwhile).
 */
export async function loadSuiteSpec(path) {
  const keepShare = JSON.parse(readFileSync(path, 'utf8')).keep === 'share';
  return { spec: await loadSpec(keepShare ? shareSpecCopy(path) : path), keepShare };
}

/** The cache folder of a spec's mix with the general sample SAMPLE asks for (default 20,000 sentences). */
export function sampleCacheDir(spec) {
  const sampleSize = Number(process.env.SAMPLE ?? 20000);
  return cacheDir(sampleSize === 20000 ? spec : { ...spec, cacheSample: sampleSize });
}

/** KEEPBY=bytes: keeps count the segments' bytes (as `tadpole eval` and `filter` do by default); else sentences. */
export const KEEP_BY = process.env.KEEPBY === 'bytes' ? 'bytes' : 'sentences';

/** The in-domain share of a cached mix's sentences, or bytes with KEEPBY=bytes (what a keep-"share" spec keeps). */
export function inDomainShare(c) {
  let inS = 0;
  let allS = 0;
  for (const [l, n, b] of c.segs) {
    const w = KEEP_BY === 'bytes' ? b : n;
    allS += w;
    if (l === c.inIdx) inS += w;
  }
  return inS / allS;
}

/** The folder of a spec's cached mix. */
export function cacheDir(spec) {
  // The methods do not shape the mix: a method added to a spec reuses its cache.
  const { methods: _methods, ...mix } = spec;
  const key = createHash('sha256').update(JSON.stringify(mix) + CODE_KEY).digest('hex').slice(0, 12);
  return join(tmpdir(), 'tadpole-research', 'suite', `${spec.name}-${key}`);
}

/**
 * TASKFORM=f: the task in a form no corpus sentence has, a held-out mix's failure
 * kind (a task-vs-corpus regression near random, DSIR far above it): prefix ("Claim: " before
 * every task sentence), suffix (" [SEP]" after it), id ("1234\t" before it, the row's number),
 * upper (upper-cased), quoted (in double quotes), label ("positive\t" or "negative\t" before
 * it, by the sentence's parity).
 */
export const TASK_FORMS = {
  prefix: (t) => `Claim: ${t}`,
  suffix: (t) => `${t} [SEP]`,
  id: (t, i) => `${1000 + i}\t${t}`,
  upper: (t) => t.toUpperCase(),
  quoted: (t) => `"${t}"`,
  label: (t, i) => `${i % 2 ? 'negative' : 'positive'}\t${t}`,
};

/** The task in env TASKFORM's form, or as it is. */
export function taskInForm(task) {
  return process.env.TASKFORM ? task.map(TASK_FORMS[process.env.TASKFORM]) : task;
}

/** The specs to read: the names given, else every spec of SUITE_DIR (default corpora/suite). */
export function specNames(argv) {
  const suite = resolve(ROOT, process.env.SUITE_DIR ?? 'corpora/suite');
  const names = argv.length > 0 ? argv : readdirSync(suite).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
  return names.map((name) => ({ name, file: join(suite, `${name}.json`) }));
}

/**
 * The spec and its cached mix ({ labels, inIdx, segs, sentences, task, general, generalGroups }),
 * or the spec alone when suite.js has not cached it yet.
 */
export async function cachedMix(file) {
  const { spec } = await loadSuiteSpec(file);
  const cache = join(sampleCacheDir(spec), 'cache.json');
  return existsSync(cache) ? { spec, c: JSON.parse(readFileSync(cache, 'utf8')) } : { spec };
}
