import { readFileSync } from 'node:fs';
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
export { builtinMix } from '../../src/run/demo.js';

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
