import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { splitSentences } from '../../src/text/sentences.js';
import { ROOT } from './cli.js';

/**
 * The built-in corpus (corpora/builtin/, SOURCES.md there): real text that ships with the
 * checkout, for tests that need some and must run without the shared corpora.
 */
const read = (name: string) => gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', name))).toString('utf8');

/**
 * The built-in mix's documents, the first `perSource` of each source, read as tadpole demo
 * reads them: bio (PubMedQA abstracts), cs (OpenReview abstracts), wiki, speech (US
 * presidential speeches) and fiction (Gutenberg), each about a fifth of the text.
 */
export { builtinMix } from '../../src/commands/demo.js';

/** Sentences of the built-in biomedical task (PubMedQA abstracts none of the mix holds), the first `limit`, de-duplicated. */
export function builtinTaskSentences(limit = Infinity): string[] {
  const seen = new Set<string>();
  for (const abstract of read('task-bio.txt.gz').split(/\n\s*\n/)) {
    const spans = splitSentences(abstract);
    for (let j = 0; j < spans.length && seen.size < limit; j += 2) seen.add(abstract.slice(spans[j], spans[j + 1]));
    if (seen.size >= limit) break;
  }
  return [...seen];
}

/**
 * About 200 KB of the built-in mix's JSONL (whole records) as `DIR/corpus.jsonl`, and about
 * 60 KB of the biomedical task (whole abstracts) as `DIR/task.txt`: a run of a few seconds on
 * real text, for the fault tests that start one and act on it.
 */
export function writeBuiltinSlice(dir: string): { corpus: string; task: string } {
  const mix = gunzipSync(readFileSync(join(ROOT, 'corpora', 'builtin', 'mix.jsonl.gz')));
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, mix.subarray(0, mix.indexOf(0x0a, 200_000) + 1));
  const bio = read('task-bio.txt.gz');
  const task = join(dir, 'task.txt');
  writeFileSync(task, bio.slice(0, bio.indexOf('\n\n', 60_000)) + '\n');
  return { corpus, task };
}
