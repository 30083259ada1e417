import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { bool, list, numWithDefault, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { inputsFrom, readerFlags, readerOptionsFrom, shellWord } from './common.js';
import { STDIN } from '../io/input.js';
import { expandInputs } from '../io/inputs/expand.js';
import { Sink } from '../io/sink.js';
import { type InspectedGroup, inspectText } from '../commands/inspect.js';
import { OFFER_MIN_SHARE, offersAvoid } from '../inspect/groups.js';

const spec: CommandSpec = {
  name: 'inspect',
  summary: 'what a text is made of: its pieces grouped by what they talk about (e.g. the kept text, to find what to --avoid)',
  usage: 'tadpole inspect [FILE... | -] [--groups N] [--task FILE...] [--write-groups DIR] [--json]',
  positionalInputs: true,
  flags: [
    { name: 'groups', min: 1, type: 'int', arg: 'N', default: 12, help: 'Groups to form (fewer when the text has fewer pieces); with --task, half of them for the task-like pieces' },
    { name: 'sample', min: 1, type: 'int', arg: 'N', default: 10000, help: 'Read a seeded sample of N sentences in 15-sentence pieces, spread over the input (plain files are seeked into, not read whole)' },
    { name: 'examples', min: 0, type: 'int', arg: 'N', default: 3, help: 'Example sentences per group (from the pieces nearest its centre)' },
    { name: 'task', role: 'input', type: 'list', arg: 'FILE...', help: "Your task's text: the pieces whose words the task does not use are grouped apart and the groups come least task-like first, each saying whether it reads like the task and how to --avoid it; also each group's share of the task's sentences" },
    { name: 'write-groups', role: 'output-dir', type: 'string', arg: 'DIR', help: "Write each group's sampled sentences to DIR/group-K.txt, one per line, ready for tadpole fit --avoid" },
    { name: 'json', type: 'boolean', help: 'One JSON object per group on stdout instead of the report' },
    { name: 'seed', type: 'int', arg: 'N', default: 0, help: 'Seed for the sample and the grouping' },
    ...readerFlags,
  ],
  notes: `Reads a sample of the text (usually what tadpole filter kept), cuts it into pieces of 15
sentences as the filter does, and groups the pieces by their words (LSA of word 1-2-grams,
spherical k-means). Each group is shown with its share of the text, its most distinctive
words and example sentences. Where the filter kept the task's topic in the wrong genre (forum
posts, statistics tables, encyclopaedia articles beside the news you wanted), that text tends
to form groups of its own: write them out with --write-groups and refit with --avoid on the
ones you do not want (docs/guide/choosing-what-to-keep.md).
If the unwanted text is your topic written as another kind of text and you would rather not
pick groups, refit with --option moveBy=consensus style=on: a style view then vetoes what
reads unlike your task. Only if the text you want is written like your task: where the task
is in another genre than the text you want (1961 religious prose to find forum posts about
religion), it keeps the wrong text (docs/research.md, "A style view").
Groups come from a sample: the group files hold the sampled sentences, not every kept one.

Examples:
  tadpole filter -m model.json corpus.jsonl -o kept.jsonl
  tadpole inspect kept.jsonl --task task.txt --write-groups groups/
  tadpole fit --task task.txt --avoid groups/group-3.txt -o model2.json   # then filter again`,
};

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}


/** The refit that avoids a group, with the group's file (or where --write-groups would put it). */
function avoidCommand(taskFiles: readonly string[], file: string): string {
  return `tadpole fit --task ${taskFiles.map(shellWord).join(' ')} --avoid ${shellWord(file)} -o model.json`;
}

function verdict(g: InspectedGroup): string {
  const words = typeof g.rarer === 'number' ? `its words are ${g.rarer.toFixed(1)}x as rare under the task's word frequencies as the task's own text's` : 'no content words';
  const pieces = `${Math.round(100 * (g.unlike ?? 0))}% of it in pieces less like the task than nearly all of the task's own`;
  if (g.verdict === 'unlike') return `  UNLIKE the task: ${words}; ${pieces}; and it is written unlike nearly all of the task's own (its function words)`;
  if (g.verdict === 'off-topic') return `  task-like, on topics the task lacks: ${words}; ${pieces}; but written as the task is (its function words)`;
  return `  task-like: ${words}; ${pieces}`;
}

function report(g: InspectedGroup, task: { files: readonly string[] } | undefined, file: string): string {
  const head = `group ${g.id}  ${(100 * g.share).toFixed(1)}% of the text  (${count(g.pieces, 'piece')}, ${count(g.sentences.length, 'sentence')})${task ? `  task ${(100 * (g.referenceShare ?? 0)).toFixed(1)}%` : ''}`;
  const lines = [head, `  words: ${g.words.length ? g.words.join(', ') : '(none frequent enough)'}`];
  if (task) lines.push(verdict(g));
  for (const e of g.examples) lines.push(`  > ${e}`);
  if (task && offersAvoid(g)) lines.push(`  to avoid it: ${avoidCommand(task.files, file)}`);
  else if (task && g.verdict === 'unlike') lines.push(`  under ${100 * OFFER_MIN_SHARE}% of the text: too little to be worth a refit`);
  // No ready command: such a group was mostly the task's own kind of text (groups.ts offersAvoid).
  else if (task && g.verdict === 'off-topic') lines.push('  most likely your domain on topics your task lacks: keep it, unless you know these topics are not wanted');
  return lines.join('\n');
}

export const command: Command = {
  spec,
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const inputs = inputsFrom(args);
    const groups = numWithDefault(args, 'groups');
    const size = numWithDefault(args, 'sample');
    const examples = numWithDefault(args, 'examples');
    const seed = numWithDefault(args, 'seed');
    if (!(groups >= 1)) throw new TadpoleError('TADPOLE_USAGE', `--groups must be at least 1, got ${groups}`);
    if (!(size >= 1)) throw new TadpoleError('TADPOLE_USAGE', `--sample must be at least 1, got ${size}`);
    if (!(examples >= 0)) throw new TadpoleError('TADPOLE_USAGE', `--examples must be 0 or more, got ${examples}`);
    const taskFiles = expandInputs(list(args, 'task'));
    if (taskFiles.includes(STDIN) && inputs.includes(STDIN)) throw new TadpoleError('TADPOLE_USAGE', 'stdin (-) can feed the text or --task, not both');
    const outDir = str(args, 'writeGroups');

    const done = await inspectText({
      inputs,
      reader,
      groups,
      sample: size,
      examples,
      seed,
      taskFiles,
      ...(outDir ? { writeGroups: outDir } : {}),
      stdin: io.stdin,
    });
    const found = done.groups;
    const task = done.taskSentences !== undefined;
    const files = done.files;
    const stale = done.removed;
    if (outDir && stale.length) io.stderr.write(`tadpole: removed ${stale.length} group file${stale.length === 1 ? '' : 's'} of an earlier run from ${outDir} (${stale.join(', ')})\n`);
    // Where each group's file is (or would be, with --write-groups), for the --avoid commands.
    const groupFile = (g: InspectedGroup) => join(outDir ?? 'DIR', `group-${g.id}.txt`);
    const pieces = found.reduce((a, g) => a + g.pieces, 0);
    // Through a Sink: `tadpole inspect ... | head` closes the pipe early, which is no error.
    const sink = Sink.toStream(io.stdout);
    if (bool(args, 'json')) {
      for (const [i, g] of found.entries()) {
        const byTask = task ? { taskShare: g.referenceShare ?? 0, rarer: g.rarer ?? null, unlike: g.unlike ?? 0, verdict: g.verdict, taskLike: g.verdict !== 'unlike', avoid: offersAvoid(g) ? avoidCommand(taskFiles, groupFile(g)) : null } : {};
        const out = { group: g.id, share: g.share, pieces: g.pieces, sentences: g.sentences.length, words: g.words, examples: g.examples, ...byTask, ...(outDir ? { file: files[i] } : {}) };
        await sink.write(JSON.stringify(out) + '\n');
      }
    } else {
      const from = done.sampler === 'seek' ? 'a seeded sample seeked from the input' : done.sentences < size ? 'all of it' : 'a seeded sample';
      await sink.write(`${count(done.sentences, 'sentence')} in ${count(pieces, 'piece')} (${from}), ${count(found.length, 'group')}${task ? `; ${count(done.taskSentences as number, 'task sentence')} placed among them` : ''}\n`);
      if (task) {
        const off = found.filter((g) => g.verdict === 'unlike');
        const share = off.reduce((a, g) => a + g.share, 0);
        const topics = found.filter((g) => g.verdict === 'off-topic');
        const elsewhere = topics.length ? `; ${count(topics.length, 'group')} (${(100 * topics.reduce((a, g) => a + g.share, 0)).toFixed(1)}% of the text) written as the task is, on topics it lacks` : '';
        await sink.write(off.length ? `least task-like first: ${count(off.length, 'group')} (${(100 * share).toFixed(1)}% of the text) unlike the task${elsewhere}\n` : `least task-like first: no group is another kind of text than the task${elsewhere}\n`);
        if (found.some(offersAvoid) && !outDir) await sink.write('write the groups with --write-groups DIR to run the --avoid commands below\n');
      }
      for (const g of found) await sink.write(`\n${report(g, task ? { files: taskFiles } : undefined, groupFile(g))}\n`);
    }
    await sink.close();
    if (outDir) io.stderr.write(`tadpole: wrote ${files.length} group files to ${outDir}; to keep less like some of them: tadpole fit --task ... --avoid ${join(outDir, 'group-K.txt')} ...\n`);
    return 0;
  },
};
