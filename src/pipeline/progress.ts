import { statSync } from 'node:fs';
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
      if (f === '-' || f.endsWith('.gz')) return;
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

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  if (s < 60) return `${s.toFixed(0)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${Math.round(s % 60).toString().padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60).toString().padStart(2, '0')}m`;
}
