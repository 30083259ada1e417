import { TadpoleError } from '../core/errors.js';
import { readKinds, type Doc, type ReaderOptions } from '../io/documents.js';
import type { InputKind } from '../io/input-kind.js';
import { STDIN } from '../io/input.js';
import type { SentenceScorer } from '../select/selector.js';
import { splitSentences } from '../text/sentences.js';

/** A batch of documents with their sentence spans and per-sentence scores. */
export interface SplitBatch {
  docs: Doc[];
  /** spans[i]: flat [start, end, ...] sentence offsets of docs[i]. */
  spans: number[][];
  /** Index of docs[i]'s first sentence in `sentences`/`scores`. */
  firstSentence: number[];
  /** The sentences as strings, or empty when they were not sliced (a scorer that reads spans in place). */
  sentences: string[];
}

export interface ScoredBatch extends SplitBatch {
  scores: Float64Array;
}

/** ~4k sentences a batch: big enough to amortise a scorer call, small enough to keep memory flat. */
export const DEFAULT_BATCH_SENTENCES = 4096;

const emptyBatch = (): SplitBatch => ({ docs: [], spans: [], firstSentence: [], sentences: [] });

/** Splits `doc` and appends it, its spans and (with `slice`) its sentences to `b`. */
function addDoc(b: SplitBatch, doc: Doc, slice: boolean): void {
  const spans = splitSentences(doc.text);
  const last = b.docs.length - 1;
  // Counted from the spans, so it holds when the sentences are not sliced too.
  b.firstSentence.push(last < 0 ? 0 : b.firstSentence[last]! + b.spans[last]!.length / 2);
  b.docs.push(doc);
  b.spans.push(spans);
  if (slice) for (let j = 0; j < spans.length; j += 2) b.sentences.push(doc.text.slice(spans[j], spans[j + 1]));
}

/** One batch of documents split into sentences (`slice`: false leaves `sentences` empty, spans only). */
export function splitDocs(docs: Doc[], slice = true): SplitBatch {
  const b = emptyBatch();
  for (const doc of docs) addDoc(b, doc, slice);
  return b;
}

/** Sentence i of a batch (sliced now when the batch holds spans only). */
export function sentenceAt(b: SplitBatch, i: number): string {
  if (b.sentences.length > 0) return b.sentences[i]!;
  let d = 0;
  while (d + 1 < b.docs.length && b.firstSentence[d + 1]! <= i) d++;
  const j = 2 * (i - b.firstSentence[d]!);
  return b.docs[d]!.text.slice(b.spans[d]![j], b.spans[d]![j + 1]);
}

/** Split documents into sentences, gathering batches of about `target` sentences (`slice`: false leaves `sentences` empty, spans only). */
export async function* splitBatches(docBatches: AsyncIterable<Doc[]>, target = DEFAULT_BATCH_SENTENCES, slice = true): AsyncGenerator<SplitBatch> {
  let cur = emptyBatch();
  let count = 0;
  for await (const docs of docBatches) {
    for (const doc of docs) {
      addDoc(cur, doc, slice);
      count += cur.spans[cur.spans.length - 1]!.length / 2;
      if (count >= target) {
        yield cur;
        cur = emptyBatch();
        count = 0;
      }
    }
  }
  if (cur.docs.length > 0) yield cur;
}

/** Whether to slice a batch's sentences for `scorer`: only for one that cannot read them in place (scoreSpans). */
export function slicesFor(scorer: SentenceScorer | undefined): boolean {
  return scorer !== undefined && scorer.scoreSpans === undefined;
}

/** Documents split and scored; sentences are sliced only for a scorer that cannot read them in place (scoreSpans). */
export function scoreDocBatches(docBatches: AsyncIterable<Doc[]>, scorer: SentenceScorer, target = DEFAULT_BATCH_SENTENCES): AsyncGenerator<ScoredBatch> {
  return scoreBatches(splitBatches(docBatches, target, slicesFor(scorer)), scorer);
}

/** Sentences of split batches, for a scorer's `prepare` pass. */
export async function* sentencesOf(batches: AsyncIterable<SplitBatch>): AsyncGenerator<string[]> {
  for await (const b of batches) if (b.sentences.length > 0) yield b.sentences;
}

/**
 * Runs a corpus-wide scorer's `prepare` pass over input FILES (no-op for other scorers).
 * Callers that can spool stdin (filter) do their own pass instead.
 */
export async function prepareOnFiles(scorer: Pick<SentenceScorer, 'prepare' | 'method'>, inputs: readonly InputKind[], reader: ReaderOptions): Promise<void> {
  if (!scorer.prepare) return;
  if (inputs.some((k) => k.input === STDIN)) throw new TadpoleError('TADPOLE_USAGE', `${scorer.method}: this form reads the corpus twice; give files, not stdin`);
  await scorer.prepare(sentencesOf(splitBatches(readKinds(inputs, reader))));
}

/** Run directories and shards score parts of the corpus in separate processes: a corpus-wide scorer cannot. */
export function refuseCorpusWide(scorer: Pick<SentenceScorer, 'prepare' | 'method'>): void {
  if (scorer.prepare) throw new TadpoleError('TADPOLE_USAGE', `${scorer.method} in this form selects against the whole corpus at once: run it with plain tadpole filter (no --run-dir / --shard)`);
}

/**
 * Scores batches with one batch in flight ahead: reading and splitting batch i+1
 * overlaps the scorer's work on batch i (the ONNX runtime runs on its own threads).
 */
export async function* scoreBatches(batches: AsyncIterable<SplitBatch>, scorer: SentenceScorer): AsyncGenerator<ScoredBatch> {
  let pending: Promise<ScoredBatch> | undefined;
  for await (const b of batches) {
    const next = scoreBatch(b, scorer).then((scores) => ({ ...b, scores }));
    next.catch(() => undefined); // surfaced when awaited below
    if (pending) yield await pending;
    pending = next;
  }
  if (pending) yield await pending;
}

/** Scores of a split batch's sentences (scoreSplit). */
export function scoreBatch(b: SplitBatch, scorer: SentenceScorer): Promise<Float64Array> {
  return scoreSplit(scorer, b.docs.map((d) => d.text), b.spans, b.sentences);
}

/**
 * Scores of the sentences at `spans` of each text, in order: from `sentences` when they were
 * sliced (slicesFor), in place for a scorer that reads spans (scoreSpans), else sliced here.
 */
export function scoreSplit(scorer: SentenceScorer, texts: readonly string[], spans: readonly (readonly number[])[], sentences: string[]): Promise<Float64Array> {
  let n = 0;
  for (const s of spans) n += s.length / 2;
  if (n === 0) return Promise.resolve(new Float64Array(0));
  if (sentences.length === n) return scorer.score(sentences);
  if (scorer.scoreSpans) return scorer.scoreSpans(texts, spans);
  return scorer.score(texts.flatMap((t, i) => sentencesOfDoc(t, spans[i]!)));
}

function sentencesOfDoc(text: string, spans: readonly number[]): string[] {
  const out: string[] = [];
  for (let j = 0; j < spans.length; j += 2) out.push(text.slice(spans[j], spans[j + 1]));
  return out;
}
