/** Option readers for selector options (CLI strings or API numbers); errors name the bad value. */
import { TadpoleError } from '../core/errors.js';

export function numOpt(opts: Record<string, unknown>, name: string, dflt: number, check: (v: number) => boolean = () => true): number {
  const raw = opts[name];
  if (raw === undefined) return dflt;
  const v = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(v) || !check(v)) throw new TadpoleError('TADPOLE_USAGE', `invalid ${name} ${JSON.stringify(raw)}`);
  return v;
}

export function intOpt(opts: Record<string, unknown>, name: string, dflt: number, min = 1): number {
  return numOpt(opts, name, dflt, (v) => Number.isInteger(v) && v >= min);
}

export function strOpt(opts: Record<string, unknown>, name: string, dflt: string, allowed?: readonly string[]): string {
  const raw = opts[name];
  if (raw === undefined) return dflt;
  const v = String(raw);
  if (allowed && !allowed.includes(v)) throw new TadpoleError('TADPOLE_USAGE', `unknown ${name} "${v}"; should be one of: ${allowed.join(', ')}`);
  return v;
}

export function needTask(task: string[], method: string): void {
  if (task.length === 0) throw new TadpoleError('TADPOLE_INPUT', `${method}: the task text has no sentences`);
}

export function needGeneral(general: string[], method: string): void {
  if (general.length === 0) throw new TadpoleError('TADPOLE_USAGE', `${method} needs a general-domain sample (--general FILE)`);
}
