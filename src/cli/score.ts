import { TadpoleError } from '../core/errors.js';
import { readDocuments, ReadCounters } from '../io/documents.js';
import { Sink } from '../io/sink.js';
import { readModel } from '../model/file.js';
import { openScorer } from '../model/open.js';
import { scoreBatches, splitBatches } from '../pipeline/scored.js';
import { segmentsOf } from '../pipeline/segments.js';
import { bool, num, str, type CommandSpec } from './args.js';
import type { Command } from './command.js';
import { embedderFlags, embedderOverridesFrom, inputsFrom, readerFlags, readerOptionsFrom } from './common.js';

const spec: CommandSpec = {
  name: 'score',
  summary: 'print per-sentence (or per-segment) scores as JSONL; lower = more task-like',
  usage: 'tadpole score --model model.json [--segments] [FILE... | -] [-o OUT]',
  flags: [
    { name: 'model', alias: 'm', type: 'string', arg: 'FILE', help: 'Model file from tadpole fit (required)' },
    { name: 'segments', type: 'boolean', help: 'One record per segment instead of per sentence' },
    { name: 'segment', type: 'int', arg: 'N', default: 15, help: 'Sentences per segment' },
    { name: 'no-text', type: 'boolean', help: 'Leave the text out of the records' },
    { name: 'output', alias: 'o', type: 'string', arg: 'FILE', help: 'Output file [default: stdout]' },
    ...readerFlags,
    ...embedderFlags,
  ],
  notes: `Records: {"doc","i","score","text"} per sentence; with --segments {"doc","segment","first","sentences","score","text"}.`,
};

export const command: Command = {
  spec,
  async run(args, io) {
    const modelPath = str(args, 'model');
    if (!modelPath) throw new TadpoleError('TADPOLE_USAGE', '--model FILE is required (create one with tadpole fit)');
    const model = readModel(modelPath);
    const reader = readerOptionsFrom(args);
    const output = str(args, 'output');
    const sink = output ? Sink.toFile(output) : Sink.toStream(io.stdout);
    const withText = !bool(args, 'noText');
    const perSegment = bool(args, 'segments');
    const size = num(args, 'segment') ?? 15;
    const scorer = await openScorer(model, embedderOverridesFrom(args, io));
    try {
      const docs = readDocuments(inputsFrom(args), reader, { stdin: io.stdin, counters: new ReadCounters() });
      let nextId = 0;
      for await (const b of scoreBatches(splitBatches(docs), scorer)) {
        if (perSegment) {
          const segs = segmentsOf(b, size, nextId);
          nextId += segs.length;
          let d = 0;
          for (const seg of segs) {
            while (b.docs[d]!.ordinal !== seg.doc) d++;
            const spans = b.spans[d]!;
            const rec: Record<string, unknown> = { doc: seg.doc, segment: seg.id, first: seg.firstSentence, sentences: seg.sentences, score: seg.score };
            if (withText) rec.text = b.docs[d]!.text.slice(spans[2 * seg.firstSentence], spans[2 * (seg.firstSentence + seg.sentences - 1) + 1]);
            await sink.write(JSON.stringify(rec) + '\n');
          }
        } else {
          for (let d = 0; d < b.docs.length; d++) {
            const first = b.firstSentence[d]!;
            const n = b.spans[d]!.length / 2;
            for (let i = 0; i < n; i++) {
              const rec: Record<string, unknown> = { doc: b.docs[d]!.ordinal, i, score: b.scores[first + i] };
              if (withText) rec.text = b.sentences[first + i];
              await sink.write(JSON.stringify(rec) + '\n');
            }
          }
        }
        if (sink.closedEarly) break;
      }
      await sink.close();
    } catch (err) {
      await sink.abort();
      throw err;
    } finally {
      await scorer.dispose();
    }
    return 0;
  },
};
