import { abortedBy } from '../core/interrupt.js';
import type { PassHooks } from './hooks.js';
import { statSync } from 'node:fs';
import { ReadCounters } from '../io/documents.js';
import { STDIN } from '../io/input.js';
import type { InputRef } from '../io/input-kind.js';

/** One-line progress for a terminal: docs, MB, MB/s and (for plain files) ETA. */
export class Progress {
  private last = 0;
  private readonly started = Date.now();
  private readonly totalBytes: number | undefined;
  constructor(private stage: string, inputs: readonly InputRef[], private out?: (line: string) => void, private intervalMs = 1000) {
    let total = 0;
    for (const f of inputs) {
      // Progress counts decoded bytes: an ETA needs every input plain (its kind, or by name).
      if (typeof f !== 'string') {
        if (!f.seekable) return;
        total += f.size;
        continue;
      }
      if (f === STDIN || f.endsWith('.gz')) return;
      try {
        total += statSync(f).size;
      } catch {
        return;
      }
    }
    this.totalBytes = total;
  }

  update(docs: number, bytes: number, force = false): void {
    if (!this.out) return;
    const now = Date.now();
    if (!force && now - this.last < this.intervalMs) return;
    this.last = now;
    const secs = Math.max(0.001, (now - this.started) / 1000);
    const mb = bytes / 1e6;
    let line = `${this.stage}: ${docs.toLocaleString('en-US')} docs, ${mb.toFixed(1)} MB, ${(mb / secs).toFixed(2)} MB/s`;
    if (this.totalBytes && bytes > 0) {
      const eta = ((this.totalBytes - bytes) / bytes) * secs;
      line += `, ${Math.min(100, (100 * bytes) / this.totalBytes).toFixed(0)}%, ETA ${formatSeconds(eta)}`;
    }
    this.out(line);
  }

  done(docs: number, bytes: number): void {
    this.update(docs, bytes, true);
  }
}

/**
 * Progress of a read whose loop is not ours (the corpus sampler): counters to hand to the
 * reader, drawn every second by a timer while the reading awaits its input.
 */
export function readingProgress(stage: string, inputs: readonly InputRef[], out?: (line: string) => void): { counters: ReadCounters; stop: () => void } {
  const counters = new ReadCounters();
  if (!out) return { counters, stop: () => {} };
  const progress = new Progress(stage, inputs, out);
  out(`${stage}: reading`);
  const timer = setInterval(() => counters.bytes > 0 && progress.update(counters.docs, counters.bytes), 1000);
  timer.unref();
  return { counters, stop: () => clearInterval(timer) };
}

/** A fit's first step: the two sides it weighs. */
export function fitStep(general: number, task: number): string {
  const t = `${task.toLocaleString('en-US')} task sentences`;
  return general > 0 ? `${general.toLocaleString('en-US')} corpus sentences against ${t}` : t;
}

/** The cut's line: it reads the spill on this thread, with no step to count. */
export function cutLine(segments: number | undefined, keep: number, keepBy: string): string {
  const among = segments === undefined ? '' : ` among ${segments.toLocaleString('en-US')} segments`;
  const amount = keep <= 1 ? `${(100 * keep).toFixed(1)}% of the ${keepBy}` : `${keep.toLocaleString('en-US')} ${keepBy}`;
  return `cut: the exact boundary${among}, keeping ${amount}`;
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  if (s < 60) return `${s.toFixed(0)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${Math.round(s % 60).toString().padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60).toString().padStart(2, '0')}m`;
}

/**
 * One-line progress for a phase with no bytes to count (a model's fit, the cut): the step it
 * is at and the seconds so far, redrawn every second while the event loop is free (a fit on a
 * worker thread leaves it free; one on this thread redraws at each step).
 */
export class PhaseProgress {
  private readonly started = Date.now();
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  constructor(private stage: string, private out?: (line: string) => void, private step = '', intervalMs = 1000) {
    if (!out) return;
    this.timer = setInterval(() => this.draw(), intervalMs);
    this.timer.unref();
    this.draw();
  }

  /** The step now running, in words ('self-training round 2 of 4'). */
  at(step: string): void {
    this.step = step;
    this.draw();
  }

  /** A fit's log line that ends a self-training round moves the step on. */
  atRound(logLine: string): void {
    const round = /^self-training round (\d+)/.exec(logLine);
    if (round) this.at(`self-training round ${round[1]} done`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.draw();
  }

  private draw(): void {
    if (!this.out) return;
    const secs = (Date.now() - this.started) / 1000;
    this.out(`${this.stage}${this.step ? `: ${this.step}` : ''}, ${formatSeconds(secs)}`);
  }
}

/** A pass's hooks on this thread: progress drawn here, interrupted by the run's signal. */
export function hooksOf(progress: Progress, signal: AbortSignal | undefined): PassHooks {
  return { progress: (docs, bytes) => progress.update(docs, bytes), abortedBy: () => abortedBy(signal) };
}
