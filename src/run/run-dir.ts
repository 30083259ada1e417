import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import { LEGACY_KEEP_BY, type KeepBy } from '../cut/exact.js';
import type { ReaderOptions } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import type { InputKind } from '../io/input-kind.js';
import { isRemote } from '../io/remote/url.js';
import { needsCompletion } from '../model/complete.js';
import { readModel, writeModel, type ModelFile } from '../model/file.js';
import { completeFromKinds, type CompleteFromCorpusOptions, type CorpusCompletion } from '../threads/corpus-completion.js';
import { fileSha256, fingerprintInputs, inputsDiffer } from '../passes/fingerprint.js';
import { runPaths } from './layout.js';
import { LEDGER_FILE, Ledger } from './ledger.js';
import type { InputFingerprint } from '../passes/fingerprint.js';

/** What a run directory is a run OF: a resumed or sharded command must match it. */
export interface RunIdentity {
  kind: 'filter' | 'shards';
  inputs: string[];
  reader: ReaderOptions;
  segment: number;
  /** --doc-context; absent for 0 (plain means), as in runs started before it existed. */
  docContext?: number;
  modelSha256: string;
  /** Shard count (1 for filter). */
  of: number;
  keep?: number;
  keepBy?: string;
  /** --tokenizer's sha256: every attempt and shard counts tokens with the same one (absent without one). */
  tokenizerSha256?: string;
}

/** The identity's tokenizer entry: absent without one, so runs without one keep the identity they had. */
export function tokenizerIdentity(path: string | undefined): { tokenizerSha256?: string } {
  return path ? { tokenizerSha256: fileSha256(path) } : {};
}

export interface OpenRun {
  ledger: Ledger;
  identity: RunIdentity;
  fingerprints: InputFingerprint[];
  /** True when this call created the run. */
  created: boolean;
}

/**
 * The run identity's docContext: absent for 0 (the plain mean), so a run started before
 * --doc-context existed resumes with --doc-context 0, and one with K > 0 names it.
 */
export function docContextIdentity(k: number): { docContext?: number } {
  return k > 0 ? { docContext: k } : {};
}

export function identityFor(base: Omit<RunIdentity, 'inputs'> & { inputs: string[] }): RunIdentity {
  return { ...base, inputs: base.inputs.map((i) => (i === STDIN || isRemote(i) ? i : resolve(i))) };
}

/**
 * Opens (or creates) a run directory for a command that reads the inputs: records the
 * identity and input fingerprints the first time, and afterwards refuses a different
 * model, other settings, or inputs that changed since the run started.
 */
export function openRun(dir: string, identity: RunIdentity, opts: { resume: boolean; args: string[]; requireResume: boolean }): OpenRun {
  mkdirSync(dir, { recursive: true });
  const ledger = Ledger.open(dir, { create: true });
  try {
    const mine = JSON.stringify(identity);
    const inForce = ledger.claim('identity', mine);
    const created = inForce === mine && ledger.meta('created') === undefined;
    if (created) ledger.setMeta({ created: new Date().toISOString(), args: JSON.stringify(opts.args), kind: identity.kind, of: String(identity.of), status: 'running', stage: 'score' });
    if (!created && inForce !== mine) {
      throw new TadpoleError(identity.modelSha256 !== (JSON.parse(inForce) as RunIdentity).modelSha256 ? 'TADPOLE_MODEL_MISMATCH' : 'TADPOLE_RUN', `${dir} holds a different run: ${identityDiff(JSON.parse(inForce) as RunIdentity, identity)}; use the same command, or a new --run-dir`);
    }
    if (!created && opts.requireResume && !opts.resume) {
      throw new TadpoleError('TADPOLE_RUN', `${dir} already holds a run (status ${ledger.meta('status') ?? '?'}): add --resume to continue it, or give a new --run-dir`);
    }
    const now = fingerprintInputs(identity.inputs);
    const recorded = ledger.inputs();
    if (recorded.length === 0) ledger.setInputsOnce(now);
    else {
      const why = inputsDiffer(recorded, now);
      if (why) throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the inputs changed since the run in ${dir} started (${why}): cannot resume; start a new --run-dir`);
    }
    return { ledger, identity, fingerprints: recorded.length ? recorded : now, created };
  } catch (err) {
    ledger.close();
    throw err;
  }
}

/** Opens an existing run for cut/emit (no inputs read yet). */
export function openExistingRun(dir: string): { ledger: Ledger; identity: RunIdentity } {
  let ledger: Ledger;
  try {
    ledger = Ledger.open(dir);
  } catch {
    throw new TadpoleError('TADPOLE_RUN', `${dir} is not a tadpole run directory (no ledger.sqlite): score it first with tadpole score --run-dir ${dir} --shard I/N`);
  }
  const raw = ledger.meta('identity');
  if (!raw) {
    ledger.close();
    throw new TadpoleError('TADPOLE_RUN', `${dir} has a ledger but no run recorded in it`);
  }
  return { ledger, identity: JSON.parse(raw) as RunIdentity };
}

/**
 * The unit a run in DIR counts its keep in, for a resume or a cut that names none: a run's
 * own settings win over the default. A filter run's identity holds it; a sharded run's
 * ledger holds its last cut's unit, or the default it was created under. A run that
 * recorded none was made when sentences were the default. Undefined when DIR holds no run.
 */
export function recordedKeepBy(dir: string): KeepBy | undefined {
  if (!existsSync(join(dir, LEDGER_FILE))) return undefined;
  const ledger = Ledger.open(dir, { readonly: true });
  try {
    const raw = ledger.meta('identity');
    if (!raw) return undefined;
    const identity = JSON.parse(raw) as RunIdentity;
    const unit = identity.kind === 'filter' ? identity.keepBy : ledger.meta('keepBy');
    return unit === 'bytes' || unit === 'sentences' || unit === 'tokens' ? unit : LEGACY_KEEP_BY;
  } finally {
    ledger.close();
  }
}

/** Inputs, changed or not, compared with the recorded fingerprints (pass 2 re-checks). */
export function checkInputsUnchanged(ledger: Ledger, inputs: string[], dir: string): void {
  const why = inputsDiffer(ledger.inputs(), fingerprintInputs(inputs));
  if (why) throw new TadpoleError('TADPOLE_INPUT_CHANGED', `the inputs changed since the run in ${dir} scored them (${why}); start a new --run-dir`);
}

function identityDiff(was: RunIdentity, now: RunIdentity): string {
  if (was.modelSha256 !== now.modelSha256) return `the model file differs (sha256 ${was.modelSha256.slice(0, 12)}... when the run started, now ${now.modelSha256.slice(0, 12)}...)`;
  if (was.kind !== now.kind) return `it is a ${was.kind} run, not a ${now.kind} run`;
  if (was.of !== now.of) return `it was split into ${was.of} shards, not ${now.of}`;
  if (JSON.stringify(was.inputs) !== JSON.stringify(now.inputs)) return `its inputs were ${was.inputs.join(' ')}`;
  if ((was.docContext ?? 0) !== (now.docContext ?? 0)) return `--doc-context was ${was.docContext ?? 0}, now ${now.docContext ?? 0}`;
  if (was.tokenizerSha256 !== now.tokenizerSha256) return was.tokenizerSha256 ? (now.tokenizerSha256 ? 'its --tokenizer file differs' : 'it counted tokens with --tokenizer') : 'it counted no tokens (no --tokenizer)';
  for (const k of ['segment', 'keep', 'keepBy'] as const) if (was[k] !== now[k]) return `--${k === 'keepBy' ? 'keep-by' : k} was ${String(was[k])}, now ${String(now[k])}`;
  for (const [k, v] of Object.entries(was.reader)) if ((now.reader as unknown as Record<string, unknown>)[k] !== v) return `reader option ${k} was ${JSON.stringify(v)}, now ${JSON.stringify((now.reader as unknown as Record<string, unknown>)[k])}`;
  return 'its settings differ';
}

/**
 * The same, once per run directory: the completed model is kept there and its sample's
 * fingerprint claimed in the ledger, so --resume and every shard score with the very same
 * model (a shard that drew a different sample, i.e. saw other inputs, is refused).
 */
export async function completeInRunDir(model: ModelFile, inputs: readonly InputKind[], reader: ReaderOptions, runDir: string, ledger: Ledger, opts: CompleteFromCorpusOptions = {}): Promise<CorpusCompletion> {
  if (!needsCompletion(model)) return { model };
  const path = runPaths(runDir).completedModel;
  const recorded = ledger.meta('completion');
  if (recorded !== undefined && existsSync(path)) {
    const kept = readModel(path);
    const sample = kept.completion?.sample;
    if (!sample || sample.fingerprint !== recorded) {
      throw new TadpoleError('TADPOLE_RUN', `${path} does not hold the completion the run recorded (fingerprint ${recorded}): the run directory is damaged; start a new --run-dir`);
    }
    opts.log?.(`model fitted without --general: reusing the completion recorded in ${runDir} (sample fingerprint ${sample.fingerprint}, ${sample.sentences} sentences)`);
    return { model: kept, info: { ...sample, seconds: 0, reused: true } };
  }
  if (inputs.some((k) => k.input === STDIN)) {
    throw new TadpoleError('TADPOLE_USAGE', 'a model fitted without --general is completed from the corpus, which a --run-dir run cannot sample from stdin: give the input as files, or refit with --general FILE');
  }
  const done = await completeFromKinds(model, inputs, reader, opts);
  const fp = done.info!.fingerprint;
  writeModel(path, done.model);
  const inForce = ledger.claim('completion', fp);
  if (inForce !== fp) {
    throw new TadpoleError('TADPOLE_RUN', `this process drew corpus sample ${fp}, but ${runDir} was completed with ${inForce}: every shard must see the same inputs`);
  }
  ledger.event(null, 'complete', `${done.model.method} completed from ${done.info!.sentences} corpus sentences (${done.info!.sampler}), fingerprint ${fp}`);
  return done;
}
