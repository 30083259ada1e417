/**
 * `fasttext`: the peer DCLM filters with (Li et al. 2024, DataComp-LM's quality classifier):
 * a supervised fastText classifier on word unigrams + bigrams (`-wordNgrams 2`), the other
 * hyperparameters at fastText's defaults as DCLM left them (lr 0.1, epoch 5, minCount 1,
 * softmax loss; mlfoundations/dclm baselines/train_fasttext_classifier.py and its README).
 * Task sentences are `__label__hq`, the general sample `__label__cc`; score = the negative
 * log-odds of hq, ln P(cc) - ln P(hq): the order of -P(hq), with the resolution of the
 * smaller probability where P(hq) prints as 1.
 *
 * It runs the `fasttext` program (Debian: apt-get install fasttext; or TADPOLE_FASTTEXT=PATH)
 * as a child process: fit trains in a temp folder and keeps the .bin's bytes in the model;
 * a loaded scorer writes them to a temp file and streams sentences, one a line, through one
 * `fasttext predict-prob MODEL - 2` that lives until dispose. Two settings differ from
 * DCLM's, for size and reproducibility: `-bucket 200000` and `-dim 10` (DCLM: fastText's
 * 2,000,000 and 100) keep the .bin near 10 MB, and `-thread 1 -seed SEED` makes the fit
 * deterministic.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { b64ToBytes } from '../core/b64.js';
import { TadpoleError } from '../core/errors.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';
import { Rng } from '../core/rng.js';
import { removeScratch, scratchDir } from '../io/atomic.js';
import { needGeneral, needTask } from './options.js';
import type { SelectorFactory, SelectorJSON, SentenceScorer } from './selector.js';
import { MethodUnavailableError } from './unavailable.js';

/** The environment variable naming the fastText program (a path, or a name looked up on PATH). */
export const FASTTEXT_ENV = 'TADPOLE_FASTTEXT';

export const FASTTEXT_DEFAULTS = {
  /** DCLM's one change to fastText's supervised defaults: word bigrams. */
  wordNgrams: 2,
  lr: 0.1,
  epoch: 5,
  minCount: 1,
  /** fastText's default is 100 (DCLM's); 10 keeps the .bin ~10 MB and two classes need few. */
  dim: 10,
  /** fastText's default is 2,000,000 (DCLM's); a task and a sample have far fewer bigrams. */
  bucket: 200_000,
} as const;

export const FASTTEXT_OPTIONS: readonly OptionDecl[] = [
  { name: 'wordNgrams', type: 'int', default: FASTTEXT_DEFAULTS.wordNgrams, min: 1, max: 5, help: 'longest word n-gram (-wordNgrams; DCLM: 2)' },
  { name: 'epoch', type: 'int', default: FASTTEXT_DEFAULTS.epoch, min: 1, help: 'passes over the training lines (-epoch)' },
  { name: 'lr', type: 'number', default: FASTTEXT_DEFAULTS.lr, min: 0, minOpen: true, help: 'learning rate (-lr)' },
  { name: 'minCount', type: 'int', default: FASTTEXT_DEFAULTS.minCount, min: 1, help: 'occurrences a word needs to be in the vocabulary (-minCount)' },
  { name: 'dim', type: 'int', default: FASTTEXT_DEFAULTS.dim, min: 1, max: 300, help: 'size of the word vectors (-dim; the model grows with dim x (words + bucket))' },
  { name: 'bucket', type: 'int', default: FASTTEXT_DEFAULTS.bucket, min: 1000, help: 'hash buckets of the word n-grams (-bucket)' },
];

const INSTALL = 'install it (apt-get install fasttext) or set TADPOLE_FASTTEXT to the program';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The fastText program: $TADPOLE_FASTTEXT (a path, or a name on PATH), else `fasttext` on PATH; or a MethodUnavailableError. */
export function fasttextProgram(): string {
  const named = process.env[FASTTEXT_ENV];
  const want = named !== undefined && named !== '' ? named : 'fasttext';
  if (want.includes('/')) {
    if (executable(want)) return want;
    throw new MethodUnavailableError('fasttext', `method fasttext needs the fastText program, and ${FASTTEXT_ENV}=${want} is not an executable file; ${INSTALL}`);
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, want))) return join(dir, want);
  }
  throw new MethodUnavailableError('fasttext', `method fasttext needs the fastText program, and there is no "${want}" on PATH; ${INSTALL}`);
}

/**
 * One line of fastText input: whitespace (and NUL) runs as one space; no token read as a label
 * (`__label__...`) or as the end of the line (`</s>`, which would split it in two and shift
 * every later prediction by a line).
 */
function line(s: string): string {
  const text = s.replace(/[\s\0]+/g, ' ').trim();
  if (!text.includes('</s>') && !text.includes('__label__')) return text;
  return text
    .split(' ')
    .map((t) => (t === '</s>' ? '<s/>' : t.startsWith('__label__') ? t.slice(1) : t))
    .join(' ');
}

/** Runs the program to its end; a failure is TADPOLE_RUN with the last line it wrote to stderr. */
async function runProgram(program: string, args: string[], what: string): Promise<void> {
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (err = (err + d).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).catch((cause: unknown) => {
    throw new TadpoleError('TADPOLE_RUN', `${what}: cannot run ${program}: ${(cause as Error).message}`, { cause });
  });
  if (code !== 0) {
    const last = err.trim().split('\n').pop() ?? '';
    throw new TadpoleError('TADPOLE_RUN', `${what}: ${program} ${args[0]} exited with ${code ?? 'a signal'}${last ? `: ${last}` : ''}`);
  }
}

/** The score of one `predict-prob ... 2` output line: ln P(cc) - ln P(hq). */
function lineScore(out: string): number {
  const t = out.trim().split(/\s+/);
  let hq = NaN;
  let cc = NaN;
  for (let i = 0; i + 1 < t.length; i += 2) {
    if (t[i] === '__label__hq') hq = Number(t[i + 1]);
    else if (t[i] === '__label__cc') cc = Number(t[i + 1]);
  }
  if (!(hq > 0) || !(cc > 0)) throw new TadpoleError('TADPOLE_INTERNAL', `fasttext predict-prob wrote a line without both labels: ${JSON.stringify(out.slice(0, 200))}`);
  return Math.log(cc) - Math.log(hq);
}

interface Pending {
  out: Float64Array;
  got: number;
  resolve: (scores: Float64Array) => void;
  reject: (err: Error) => void;
}

class FasttextScorer implements SentenceScorer {
  readonly method = 'fasttext';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly closed: Promise<void>;
  private partial = '';
  private stderr = '';
  private pending: Pending | undefined;
  private failure: Error | undefined;
  /** Score calls run one after another: each one's lines come back in order. */
  private tail: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(
    program: string,
    private readonly dir: string,
    model: string,
  ) {
    this.child = spawn(program, ['predict-prob', model, '-', '2'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => this.take(d));
    this.child.stderr.on('data', (d: string) => (this.stderr = (this.stderr + d).slice(-4000)));
    // A write after the child died: the 'close' handler says why.
    this.child.stdin.on('error', () => {});
    this.closed = new Promise((resolve) => {
      this.child.on('error', (cause) => this.fail(new TadpoleError('TADPOLE_RUN', `fasttext: cannot run ${program}: ${cause.message}`, { cause })));
      this.child.on('close', (code, signal) => {
        if (!this.disposed) {
          const last = this.stderr.trim().split('\n').pop() ?? '';
          this.fail(new TadpoleError('TADPOLE_RUN', `fasttext predict-prob stopped (${code ?? signal})${last ? `: ${last}` : ''}`));
        }
        resolve();
      });
    });
  }

  /** The child's process id (tests check it is gone after dispose). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const p = this.pending;
    this.pending = undefined;
    p?.reject(err);
  }

  private take(data: string): void {
    let text = this.partial + data;
    let nl = text.indexOf('\n');
    let start = 0;
    while (nl >= 0) {
      const p = this.pending;
      if (!p) {
        this.fail(new TadpoleError('TADPOLE_INTERNAL', 'fasttext predict-prob wrote more lines than it was given'));
        return;
      }
      try {
        p.out[p.got++] = lineScore(text.slice(start, nl));
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (p.got === p.out.length) {
        this.pending = undefined;
        p.resolve(p.out);
      }
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    text = text.slice(start);
    this.partial = text;
  }

  private request(sentences: string[]): Promise<Float64Array> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.disposed) return Promise.reject(new TadpoleError('TADPOLE_INTERNAL', 'fasttext scorer used after dispose'));
    return new Promise((resolve, reject) => {
      this.pending = { out: new Float64Array(sentences.length), got: 0, resolve, reject };
      this.child.stdin.write(sentences.map(line).join('\n') + '\n');
    });
  }

  score(sentences: string[]): Promise<Float64Array> {
    if (sentences.length === 0) return Promise.resolve(new Float64Array(0));
    const run = this.tail.then(() => this.request(sentences));
    this.tail = run.catch(() => {});
    return run;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await this.closed;
    clearTimeout(timer);
    removeScratch(this.dir);
  }
}

/** A scorer of a fastText model (the .bin's bytes), through a child `fasttext predict-prob`. */
export function openFasttext(model: Buffer): SentenceScorer {
  const program = fasttextProgram();
  const dir = scratchDir('tadpole-fasttext-');
  try {
    const file = join(dir, 'model.bin');
    writeFileSync(file, model);
    return new FasttextScorer(program, dir, file);
  } catch (err) {
    removeScratch(dir);
    throw err;
  }
}

export const fasttextSelector: SelectorFactory = {
  method: 'fasttext',
  summary: 'peer: supervised fastText, word bigrams (DCLM recipe; needs the fasttext program)',
  explain: 'fasttext: DCLM\'s quality classifier, supervised fastText on word unigrams and bigrams, task\nsentences (__label__hq) against the general sample (__label__cc); a sentence scores by its\nodds of hq. Runs the fasttext program (apt-get install fasttext, or TADPOLE_FASTTEXT=PATH).',
  options: FASTTEXT_OPTIONS,
  needsEmbedder: false,
  needsGeneral: true,
  async fit(ctx): Promise<SelectorJSON> {
    needTask(ctx.task, 'fasttext');
    needGeneral(ctx.general, 'fasttext');
    const read = optionReader({ label: 'method fasttext', options: FASTTEXT_OPTIONS }, ctx.options);
    const params = {
      wordNgrams: read.number('wordNgrams'),
      epoch: read.number('epoch'),
      lr: read.number('lr'),
      minCount: read.number('minCount'),
      dim: read.number('dim'),
      bucket: read.number('bucket'),
    };
    const program = fasttextProgram();
    // fastText reads the file in order (one thread): the two sides interleaved by a seeded shuffle.
    const lines = [...ctx.task.map((s) => `__label__hq ${line(s)}`), ...ctx.general.map((s) => `__label__cc ${line(s)}`)];
    new Rng(ctx.seed).shuffle(lines);
    const dir = scratchDir('tadpole-fasttext-');
    try {
      const train = join(dir, 'train.txt');
      writeFileSync(train, lines.join('\n') + '\n');
      const seed = Math.abs(Math.trunc(ctx.seed)) % 2147483647;
      const args = ['supervised', '-input', train, '-output', join(dir, 'model'), '-wordNgrams', String(params.wordNgrams), '-epoch', String(params.epoch), '-lr', String(params.lr), '-minCount', String(params.minCount), '-dim', String(params.dim), '-bucket', String(params.bucket), '-loss', 'softmax', '-thread', '1', '-seed', String(seed), '-verbose', '0'];
      await runProgram(program, args, 'method fasttext');
      const bin = readFileSync(join(dir, 'model.bin'));
      ctx.log?.(`fasttext: model ${(bin.length / 1e6).toFixed(1)} MB`);
      return { method: 'fasttext', params: { ...params, loss: 'softmax', thread: 1, seed }, state: { model: bin.toString('base64') } };
    } finally {
      removeScratch(dir);
    }
  },
  async load(json): Promise<SentenceScorer> {
    return openFasttext(b64ToBytes(json.state.model, 'fasttext "model"'));
  },
};
