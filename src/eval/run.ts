import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { scratchDir, untrackTemp } from '../io/atomic.js';
import { canonicalMethod, METHOD_NAMES } from '../select/registry.js';
import { MethodUnavailableError } from '../select/unavailable.js';
import type { EvalEngine } from './engine.js';
import { buildMix, type LabelCounts, type MixResult } from './mix.js';
import { readSourceDocs } from './sources.js';
import { methodTitle, type EvalSpec, type FileSetSpec, type MethodSpec } from './spec.js';
import { scoreHistogram, type Histogram } from './histogram.js';
import { mixSentences, pickKeptGroups } from './kept-groups.js';
import type { KeptGroupsPicker, KeptGroupsSpec } from './kept-groups-spec.js';
import { cutsAtShare, keptCharShare, keptChars, weightsBy, type ScoredSegments, type ShareCut } from './share-cuts.js';
import { DEFAULT_KEEP_BY, type KeepBy } from '../cut/exact.js';
import { sampleSizeFor } from '../model/complete.js';
import { readingEntry, type TaskShare, type TaskShareReading } from '../cut/share-estimate.js';

export interface MethodResult {
  /** Title shown in tables, e.g. "tadpole[onnx:tadpole-tiny-bert]". */
  name: string;
  method: string;
  /** "hash", "onnx:<model folder>", or null for methods that do not embed. */
  embedder: string | null;
  /** Share of kept sentences per source label (sums to 1). */
  kept_share: Record<string, number>;
  /** Kept in-domain sentences / kept sentences. */
  precision: number;
  /** Kept in-domain characters (UTF-8 bytes of the kept segments) / kept characters: the selection suites' measure. */
  precisionChars: number;
  /** Kept in-domain sentences / all in-domain sentences of the mix. */
  recall: number;
  /** Kept characters (segment bytes) / all characters scored: how much of the text the keep kept. */
  keptText: number;
  seconds: number;
  fitSeconds: number;
  keptSentences: number;
  totalSentences: number;
  keptSegments: number;
  totalSegments: number;
  histogram: Histogram;
  /**
   * With `avoidKeptGroups`: the first cut's groups (share of the kept text, out-of-domain share
   * of their characters), the ids avoided, how many sentences, and the first cut's in-domain
   * share of kept characters. The other fields are the refit's.
   */
  keptGroups?: { pick: KeptGroupsPicker; groups: Array<{ share: number; outOfDomain: number; taskShare?: number }>; avoided: number[]; sentences: number; precisionCharsBefore: number };
  /** With `avoid`: the sentences of text to avoid given to the fit. */
  avoidSentences?: number;
  /** The same fit and scores cut at 0.5x, 1x and 2x the in-domain share of the sentences scored. */
  atShare: ShareCut[];
  /** What filter would say of how much of the mix looks like the task (cut/share-estimate.ts), beside `inDomainShare`. */
  taskShare?: TaskShare;
  /** Why the fit gave no `estimate` (the default's), with or without a `taskShare` range; absent for other methods. */
  taskShareNone?: string;
}

/** What was scored per source (the mix prefix with --max-sentences, else the whole mix). */
export interface MixSummary {
  label: string;
  docs: number;
  /** UTF-8 bytes of the sentence spans (segment bytes), not counting separators. */
  bytes: number;
  sentences: number;
  /** Share of the mix sentences (what random selection would keep). */
  share: number;
  availableBytes: number;
}

export interface EvalResult {
  spec: string;
  inDomain: string;
  /** Share of the bytes (or sentences, by keepBy) each method kept (and its fit was sized for). */
  keep: number;
  /** What the keep counts, as filter's --keep-by. */
  keepBy: KeepBy;
  /** "share": keep is the in-domain share of the mix's sentences or bytes (spec keep "share"); "fixed": the spec's number. */
  keepRule: 'share' | 'fixed';
  /** In-domain share of the sentences scored (what random selection keeps). */
  inDomainShare: number;
  segment: number;
  seed: number;
  labels: string[];
  mix: MixSummary[];
  taskSentences: number;
  generalSentences: number;
  methods: MethodResult[];
}

export interface RunOptions {
  engine: EvalEngine;
  /** Only these methods (by name or title). */
  methods?: string[];
  /** Folder for the mix and task files; default a fresh temp folder, removed afterwards. */
  workDir?: string;
  /** Score only the mix prefix up to this many sentences (whole documents; the mix is interleaved, so a prefix keeps the proportions). */
  maxSentences?: number;
  /** What the keep counts, as filter's --keep-by (default bytes). */
  keepBy?: KeepBy;
  log?: (line: string) => void;
  /** A line that is always shown (a method skipped as unavailable on this machine). */
  warn?: (line: string) => void;
}

function embedderName(m: MethodSpec): string | null {
  if (!m.embedder) return null;
  if (m.embedder.kind === 'onnx' && m.embedder.modelDir) return `onnx:${m.embedder.modelDir.split(/[\\/]/).filter(Boolean).pop()}`;
  return m.embedder.kind;
}

async function writeTaskFile(task: FileSetSpec, out: string): Promise<number> {
  const stream = createWriteStream(out);
  let n = 0;
  try {
    for await (const text of readSourceDocs(task)) {
      n++;
      if (!stream.write(JSON.stringify({ text }) + '\n')) await once(stream, 'drain');
    }
  } finally {
    stream.end();
    await once(stream, 'close');
  }
  return n;
}

/**
 * The sentences of a file set (the task, a method's text to avoid), written to `out` as
 * documents first; at most `limit` of them, a seeded sample. `what` names it in errors.
 */
async function fileSetSentences(engine: EvalEngine, fs: FileSetSpec, out: string, what: string, limit: number | undefined, seed: number): Promise<string[]> {
  if ((await writeTaskFile(fs, out)) === 0) throw new TadpoleError('TADPOLE_INPUT', `the ${what} files have no documents: ${fs.files.join(', ')}`);
  return engine.readSentences([out], limit ? { limit, seed } : {});
}

/** A method's text to avoid, as `fit --avoid` reads it: a seeded sample of `maxSentences`. */
async function readAvoid(engine: EvalEngine, avoid: NonNullable<MethodSpec['avoid']>, out: string, seed: number): Promise<string[]> {
  const sentences = await fileSetSentences(engine, avoid, out, 'avoid', avoid.maxSentences, seed + 7);
  if (sentences.length === 0) throw new TadpoleError('TADPOLE_INPUT', `the avoid files hold no sentences: ${avoid.files.join(', ')}`);
  return sentences;
}

interface Scored extends ScoredSegments {
  /** Documents and segment bytes per label in what was scored (the prefix with --max-sentences). */
  docsBy: Float64Array;
  bytesBy: Float64Array;
}


/** Every segment of the mix (prefix) scored by one scorer, with its source label. */
async function scoreMix(engine: EvalEngine, mix: MixResult, scorer: Parameters<EvalEngine['segmentScores']>[1], segment: number, maxSentences: number): Promise<Scored> {
  const scores: number[] = [];
  const weights: number[] = [];
  const labels: number[] = [];
  const segBytes: number[] = [];
  const docsBy = new Float64Array(mix.labels.length);
  const bytesBy = new Float64Array(mix.labels.length);
  let sentences = 0;
  let lastDoc = -1;
  outer: for await (const batch of engine.segmentScores([mix.file], scorer, segment)) {
    for (const r of batch) {
      if (r.doc !== lastDoc && sentences >= maxSentences) break outer;
      if (r.doc >= mix.docLabel.length) {
        throw new TadpoleError('TADPOLE_INTERNAL', `segment of document ${r.doc} but the mix has ${mix.docLabel.length} documents`);
      }
      const l = mix.docLabel[r.doc] as number;
      if (r.doc !== lastDoc) docsBy[l] = (docsBy[l] as number) + 1;
      bytesBy[l] = (bytesBy[l] as number) + r.bytes;
      lastDoc = r.doc;
      scores.push(r.score);
      weights.push(r.sentences);
      labels.push(l);
      segBytes.push(r.bytes);
      sentences += r.sentences;
    }
  }
  return { scores: Float64Array.from(scores), weights: Float64Array.from(weights), labels: Uint8Array.from(labels), bytes: Float64Array.from(segBytes), docsBy, bytesBy };
}

/**
 * In-domain and all sentences (or segment bytes) of the mix (its prefix with maxSentences,
 * cut as scoreMix cuts it: whole documents until the limit is reached), counted before any
 * method runs.
 */
async function countMix(engine: EvalEngine, mix: MixResult, inIdx: number, maxSentences: number, segment: number, keepBy: KeepBy): Promise<{ inDomain: number; all: number }> {
  let inDomain = 0;
  let all = 0;
  let sentences = 0;
  let doc = 0;
  outer: for await (const sizes of engine.docSizes([mix.file], segment)) {
    for (const size of sizes) {
      if (size.sentences > 0 && sentences >= maxSentences) break outer;
      const n = keepBy === 'bytes' ? size.bytes : size.sentences;
      if (mix.docLabel[doc++] === inIdx) inDomain += n;
      all += n;
      sentences += size.sentences;
    }
  }
  return { inDomain, all };
}

/** The spec's keep as a number: "share" is the in-domain share of the sentences (or bytes) to be scored. */
async function resolveKeep(spec: EvalSpec, engine: EvalEngine, mix: MixResult, inIdx: number, maxSentences: number, keepBy: KeepBy, log: (line: string) => void): Promise<number> {
  if (spec.keep !== 'share') return spec.keep;
  const { inDomain, all } = await countMix(engine, mix, inIdx, maxSentences, spec.segment, keepBy);
  const share = all > 0 ? inDomain / all : 0;
  if (!(share > 0 && share < 1)) {
    throw new TadpoleError('TADPOLE_INPUT', `keep "share": the mix has ${inDomain} ${spec.inDomain} ${keepBy} of ${all}, so there is no share strictly between 0 and 1 to keep`);
  }
  log(`keep: the ${spec.inDomain} share of the mix's ${keepBy}, ${inDomain} of ${all} (${(share * 100).toFixed(2)}%)`);
  return share;
}

/**
 * The domain-retention experiment of the TADPOLE paper (Figure 5): build the labelled mix,
 * then for each method fit on the task, score the mix through the segment machinery, keep
 * the lowest-scoring `keep` share of sentences, and report where the kept text came from.
 */
export async function runEval(spec: EvalSpec, opts: RunOptions): Promise<EvalResult> {
  const log = opts.log ?? (() => {});
  const wanted = opts.methods;
  const inSpec = (w: string): boolean => spec.methods.some((m) => m.name === w || methodTitle(m) === w);
  // A method named with --methods that the spec does not list runs too, with its defaults (the peers: tfidf, fasttext).
  const added = (wanted ?? []).filter((w, i, all) => all.indexOf(w) === i && !inSpec(w) && METHOD_NAMES.includes(canonicalMethod(w))).map((name): MethodSpec => ({ name }));
  const methods = wanted ? [...spec.methods.filter((m) => wanted.includes(m.name) || wanted.includes(methodTitle(m))), ...added] : spec.methods;
  if (methods.length === 0) {
    throw new TadpoleError('TADPOLE_USAGE', `no method of the spec matches ${wanted?.join(',')}; the spec has: ${spec.methods.map(methodTitle).join(', ')}`);
  }
  const ownDir = !opts.workDir;
  // Named with this pid, so that a later run removes it if this process is killed (io/atomic.ts).
  const dir = opts.workDir ?? scratchDir('tadpole-eval-');
  await mkdir(dir, { recursive: true });
  try {
    const mix = await buildMix({ sources: spec.sources, seed: spec.seed, ...(spec.mixBytes !== undefined ? { mixBytes: spec.mixBytes } : {}), out: join(dir, 'mix.jsonl'), log });
    log(`mix: ${mix.totalDocs} documents, ${(mix.totalBytes / 1e6).toFixed(1)} MB -> ${mix.file}`);
    const task = await fileSetSentences(opts.engine, spec.task, join(dir, 'task.jsonl'), 'task', spec.maxTaskSentences, spec.seed);
    const inIdx = mix.labels.indexOf(spec.inDomain);
    const maxSentences = opts.maxSentences ?? Infinity;
    const keepBy = opts.keepBy ?? DEFAULT_KEEP_BY;
    const keep = await resolveKeep(spec, opts.engine, mix, inIdx, maxSentences, keepBy, log);
    // As filter draws it to complete a model: a small share to keep asks for a larger sample.
    const sampleSize = sampleSizeFor(spec.generalSample, keep);
    const sampled = opts.engine.sampleGeneral
      ? await opts.engine.sampleGeneral([mix.file], { size: sampleSize, seed: spec.seed + 1 })
      : { sentences: await opts.engine.readSentences([mix.file], { limit: sampleSize, seed: spec.seed + 1 }) };
    const general = sampled.sentences;
    const generalGroups = 'groups' in sampled ? sampled.groups : undefined;
    log(`task: ${task.length} sentences; general sample: ${general.length} sentences`);
    const results: MethodResult[] = [];
    let mixSummary: MixSummary[] | undefined;
    // The mix's sentences, recorded once if a method plays the inspect + --avoid loop.
    let mixText: string[] | undefined;
    for (const m of methods) {
      const title = methodTitle(m);
      log(`${title}: fitting`);
      const t0 = performance.now();
      const avoid = m.avoid ? await readAvoid(opts.engine, m.avoid, join(dir, `avoid-${methods.indexOf(m)}.jsonl`), spec.seed) : undefined;
      if (avoid) log(`${title}: ${avoid.length} sentences to avoid`);
      const measure = async (avoidSentences: string[] | undefined): Promise<{ scored: Scored; kept: Uint8Array; fitSeconds: number; reading: TaskShareReading | undefined }> => {
        const t1 = performance.now();
        const scorer = await opts.engine.openScorer(m, { task, general, ...(generalGroups ? { generalGroups } : {}), seed: spec.seed, keep, keepBy, ...(avoidSentences ? { avoid: avoidSentences } : {}) });
        const fitSeconds = (performance.now() - t1) / 1000;
        try {
          log(`${title}: scoring the mix`);
          const scored = await scoreMix(opts.engine, mix, scorer, spec.segment, maxSentences);
          return { scored, kept: opts.engine.selectKept(scored.scores, weightsBy(scored, keepBy), keep), fitSeconds, reading: opts.engine.taskShareOf?.(scorer) };
        } finally {
          await scorer.dispose();
        }
      };
      let first: Awaited<ReturnType<typeof measure>>;
      try {
        first = await measure(avoid);
      } catch (err) {
        // A method this machine cannot run (a program it needs is missing): said, and the eval goes on.
        if (!(err instanceof MethodUnavailableError)) throw err;
        (opts.warn ?? log)(`${title}: unavailable, skipped: ${err.message}`);
        continue;
      }
      let { scored, kept, fitSeconds, reading } = first;
      let keptGroups: MethodResult['keptGroups'];
      if (m.avoidKeptGroups) {
        mixText ??= await mixSentences(opts.engine, mix.file, spec.segment);
        const pick = pickKeptGroups(mixText, scored, kept, inIdx, m.avoidKeptGroups as KeptGroupsSpec, spec.seed, task);
        keptGroups = { pick: m.avoidKeptGroups.pick ?? 'labels', groups: pick.groups, avoided: pick.avoided, sentences: pick.avoid.length, precisionCharsBefore: keptCharShare(scored, kept, inIdx) };
        const none = m.avoidKeptGroups.pick === 'offered' ? 'none (inspect offers no --avoid)' : 'none (no group is mostly out of domain)';
        log(`${title}: kept text in ${pick.groups.length} groups; avoiding ${pick.avoided.length ? `group${pick.avoided.length === 1 ? '' : 's'} ${pick.avoided.join(', ')} (${pick.avoid.length} sentences)` : none}`);
        if (pick.avoid.length > 0) ({ scored, kept, fitSeconds, reading } = await measure(pick.avoid));
      }
      const seconds = (performance.now() - t0) / 1000;
      const L = mix.labels.length;
      const keptBy = new Float64Array(L);
      const allBy = new Float64Array(L);
      let keptSegments = 0;
      let cut = -Infinity;
      for (let i = 0; i < scored.scores.length; i++) {
        const l = scored.labels[i] as number;
        const w = scored.weights[i] as number;
        allBy[l] = (allBy[l] as number) + w;
        if (kept[i]) {
          keptBy[l] = (keptBy[l] as number) + w;
          keptSegments++;
          cut = Math.max(cut, scored.scores[i] as number);
        }
      }
      const keptTotal = keptBy.reduce((a, b) => a + b, 0);
      const total = allBy.reduce((a, b) => a + b, 0);
      const kept_share: Record<string, number> = {};
      mix.labels.forEach((label, l) => (kept_share[label] = keptTotal > 0 ? (keptBy[l] as number) / keptTotal : 0));
      const inKept = keptBy[inIdx] as number;
      const chars = keptChars(scored, kept, inIdx);
      // The cuts at the share count what the keep counts: the in-domain share of sentences or bytes.
      const inShare = keepBy === 'bytes' ? (chars.all > 0 ? chars.allIn / chars.all : 0) : total > 0 ? (allBy[inIdx] as number) / total : 0;
      results.push({
        name: title,
        method: m.name,
        embedder: embedderName(m),
        kept_share,
        precision: keptTotal > 0 ? inKept / keptTotal : 0,
        precisionChars: keptCharShare(scored, kept, inIdx),
        recall: (allBy[inIdx] as number) > 0 ? inKept / (allBy[inIdx] as number) : 0,
        keptText: chars.all > 0 ? chars.kept / chars.all : 0,
        seconds,
        fitSeconds,
        keptSentences: keptTotal,
        totalSentences: total,
        keptSegments,
        totalSegments: scored.scores.length,
        histogram: scoreHistogram(scored.scores, scored.weights, scored.labels, L, cut),
        ...(keptGroups ? { keptGroups } : {}),
        ...(avoid ? { avoidSentences: avoid.length } : {}),
        atShare: cutsAtShare(scored, inIdx, inShare, (sc, w, k) => opts.engine.selectKept(sc, w, k), undefined, keepBy),
        ...readingEntry(reading),
      });
      log(`${title}: kept ${((inKept / Math.max(1, keptTotal)) * 100).toFixed(1)}% ${spec.inDomain} in ${seconds.toFixed(1)} s`);
      mixSummary ??= mix.labels.map((label, l) => ({
        label,
        docs: scored.docsBy[l] as number,
        bytes: scored.bytesBy[l] as number,
        sentences: allBy[l] as number,
        share: total > 0 ? (allBy[l] as number) / total : 0,
        availableBytes: (mix.counts[label] as LabelCounts).availableBytes,
      }));
    }
    return {
      spec: spec.name,
      inDomain: spec.inDomain,
      keep,
      keepBy,
      keepRule: spec.keep === 'share' ? 'share' : 'fixed',
      inDomainShare: mixSummary?.[inIdx]?.share ?? 0,
      segment: spec.segment,
      seed: spec.seed,
      labels: mix.labels,
      mix: mixSummary ?? [],
      taskSentences: task.length,
      generalSentences: general.length,
      methods: results,
    };
  } finally {
    if (ownDir) {
      await rm(dir, { recursive: true, force: true });
      untrackTemp(dir);
    }
  }
}
