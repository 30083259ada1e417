import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { defined } from '../core/defined.js';
import { TadpoleError } from '../core/errors.js';
import { groupText, type TextGroup } from '../inspect/groups.js';
import { rarer, taskWords } from '../inspect/task-words.js';
import { writeFileAtomic } from '../io/atomic.js';
import type { ReaderOptions } from '../io/documents.js';
import type { SamplerKind } from '../io/sample.js';
import { readSentences } from '../io/sentences.js';
import { sampleSentencesOn } from '../threads/split-pool.js';

/** Task sentences placed among the groups at most (a seeded sample beyond): enough for shares to a point. */
const TASK_SENTENCES = 5000;

export interface InspectOptions {
  /** The text to group (files, or STDIN). */
  inputs: readonly string[];
  reader: ReaderOptions;
  /** Groups to form (fewer when the text has fewer pieces). */
  groups: number;
  /** Sentences in the seeded sample, read in 15-sentence pieces. */
  sample: number;
  /** Example sentences per group. */
  examples: number;
  seed: number;
  /** The task's text: groups then carry their share of it, how much rarer their words are under it, and a verdict. */
  taskFiles?: readonly string[];
  /** Writes each group's sentences to DIR/group-K.txt, one per line, removing group files of an earlier run with more groups. */
  writeGroups?: string;
  stdin?: Readable;
}

/**
 * A group, its examples on one line each, and with a task how many times rarer its words are
 * under the task's word frequencies (null: no content words).
 */
export type InspectedGroup = TextGroup & { rarer?: number | null };

export interface InspectResult {
  groups: InspectedGroup[];
  /** Sentences sampled, and how: 'seek' (seeked into plain files) or a reservoir pass. */
  sentences: number;
  sampler: SamplerKind;
  /** Task sentences placed among the groups (with `taskFiles`). */
  taskSentences?: number;
  /** With `writeGroups`: the group files written, in group order, and the stale ones removed. */
  files: string[];
  removed: string[];
}

/** What `tadpole inspect` does: a seeded sample of the text in pieces, grouped by their words, each group placed against the task. */
export async function inspectText(opts: InspectOptions): Promise<InspectResult> {
  const ro = { stdin: opts.stdin };
  const sample = await sampleSentencesOn(1, opts.inputs, opts.reader, { size: opts.sample, seed: opts.seed }, ro);
  if (sample.sentences.length === 0) throw new TadpoleError('TADPOLE_INPUT', `no sentences in ${opts.inputs.join(', ')}: nothing to group`);
  const taskFiles = opts.taskFiles ?? [];
  const task = taskFiles.length ? await readSentences(taskFiles, { ...opts.reader, limit: TASK_SENTENCES, seed: opts.seed }, ro) : undefined;
  if (task && task.length === 0) throw new TadpoleError('TADPOLE_INPUT', `no sentences in --task ${taskFiles.join(', ')}`);
  const words = task ? taskWords(task, opts.seed) : undefined;
  const found = groupText(sample.sentences, sample.groups, { groups: opts.groups, seed: opts.seed, examples: opts.examples, reference: task, taskWords: words });
  const groups: InspectedGroup[] = found.map((g) => ({ ...g, examples: g.examples.map(oneLine), ...defined({ rarer: words && (Number.isFinite(g.surprise) ? rarer(g.surprise as number, words) : null) }) }));

  const files: string[] = [];
  const removed: string[] = [];
  const outDir = opts.writeGroups;
  if (outDir) {
    mkdirSync(outDir, { recursive: true });
    // A group file of an earlier run with more groups would pass for one of this run's.
    for (const f of readdirSync(outDir).filter((f) => /^group-\d+\.txt$/.test(f) && Number(f.slice(6, -4)) > found.length)) {
      rmSync(join(outDir, f));
      removed.push(f);
    }
    for (const g of found) {
      const file = join(outDir, `group-${g.id}.txt`);
      writeFileAtomic(file, g.sentences.map(oneLine).join('\n') + '\n');
      files.push(file);
    }
  }
  return { groups, sentences: sample.sentences.length, sampler: sample.sampler, ...defined({ taskSentences: task?.length }), files, removed };
}

/** A sentence on one line, its runs of whitespace one space. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
