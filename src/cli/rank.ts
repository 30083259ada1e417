import { TadpoleError } from '../core/errors.js';
import { bool, list, numWithDefault, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { embedderFlags, embedderSpecFrom, readerFlags, readerOptionsFrom, requireFiles } from './common.js';
import { DETECTOR_HELP, DETECTOR_NAMES } from '../detect/registry.js';
import { formatRankTable } from '../rank/rank.js';
import { rankOnTask } from '../rank/rank-task.js';

const spec: CommandSpec = {
  name: 'rank',
  summary: "rank anomaly detectors on your task (the paper's Table 1)",
  usage: 'tadpole rank --task FILE... --general FILE... [--detectors a,b] [--repeat N] [--json]',
  flags: [
    { name: 'task', role: 'input', type: 'list', arg: 'FILE...', help: 'Task (in-domain) text: plain text or JSONL (see --format), gzip ok' },
    { name: 'general', role: 'input', type: 'list', arg: 'FILE...', help: 'General-domain text; a sample as large as the held-out task share is drawn from it' },
    { name: 'detectors', type: 'list', arg: 'NAME,...', default: [...DETECTOR_NAMES], help: 'Detectors to rank' },
    { name: 'option', type: 'list', arg: 'DET.KEY=VALUE...', help: 'Detector option, e.g. --option iforest.trees=200 knn.k=5' },
    { name: 'repeat', min: 1, type: 'int', arg: 'N', default: 1, help: 'Repeat over N seeds (seed, seed+1, ...) and report mean and standard deviation' },
    { name: 'seed', type: 'int', arg: 'N', default: 0, help: 'Seed for the split, the general sample and the detectors' },
    { name: 'max-general', min: 1, type: 'int', arg: 'N', default: 20000, help: 'Read at most N general sentences (seeded reservoir sample)' },
    { name: 'dedupe', type: 'boolean', default: true, help: 'Drop repeated task sentences before the split, so no test sentence is also a training one (--no-dedupe keeps them)' },
    { name: 'json', type: 'boolean', help: 'Print the result as JSON instead of a table' },
    ...readerFlags,
    ...embedderFlags,
  ],
  notes: `Protocol (paper Section 3.1): the task sentences are split 90/10; each detector is fitted on the 90%
and scores the 10% plus an equal-sized general sample. F1 is taken at the threshold that marks as many
sentences anomalous as there are general ones; F1 best is the best over all thresholds.

Detectors:
${DETECTOR_NAMES.map((n) => `  ${n.padEnd(12)}${DETECTOR_HELP[n] ?? ''}`).join('\n')}

Examples:
  tadpole rank --task task.txt --general news.txt fiction.txt
  tadpole rank --task train.jsonl.gz --general corpus.jsonl.gz --detectors iforest,knn --repeat 5`,
};

/** Parses DET.KEY=VALUE into per-detector option records (numbers when they look like numbers). */
export function detectorOptionsFrom(pairs: string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const kv of pairs) {
    const m = /^([a-z]+)\.([A-Za-z]+)=(.*)$/.exec(kv);
    if (!m) throw new TadpoleError('TADPOLE_USAGE', `--option needs DETECTOR.KEY=VALUE (e.g. iforest.trees=200), got "${kv}"`);
    const [, det, key, raw] = m as unknown as [string, string, string, string];
    if (!DETECTOR_NAMES.includes(det)) throw new TadpoleError('TADPOLE_USAGE', `--option ${kv}: unknown detector "${det}"; should be one of: ${DETECTOR_NAMES.join(', ')}`);
    (out[det] ??= {})[key] = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  return out;
}

export const command: Command = {
  spec,
  async run(args, io) {
    const reader = readerOptionsFrom(args);
    const taskFiles = requireFiles(args, 'task', 'task');
    const generalFiles = requireFiles(args, 'general', 'general');
    const seed = numWithDefault(args, 'seed');
    const detectors = list(args, 'detectors').flatMap((d) => d.split(',')).map((d) => d.trim()).filter(Boolean);
    for (const d of detectors) {
      if (!DETECTOR_NAMES.includes(d)) throw new TadpoleError('TADPOLE_USAGE', `unknown detector "${d}"; should be one of: ${DETECTOR_NAMES.join(', ')}`);
    }
    const detectorOptions = detectorOptionsFrom(list(args, 'option'));
    const repeat = numWithDefault(args, 'repeat');
    if (repeat < 1) throw new TadpoleError('TADPOLE_USAGE', `--repeat must be >= 1, got ${repeat}`);
    const result = await rankOnTask({
      taskFiles,
      generalFiles,
      reader,
      embedder: embedderSpecFrom(args, io),
      detectors,
      detectorOptions,
      seed,
      repeat,
      maxGeneral: numWithDefault(args, 'maxGeneral'),
      dedupe: bool(args, 'dedupe'),
      stdin: io.stdin,
    });
    io.stdout.write(bool(args, 'json') ? JSON.stringify(result) + '\n' : formatRankTable(result));
    return 0;
  },
};
