/** Checks every method makes of its input (options are read through core/option-decl.ts). */
import { TadpoleError } from '../core/errors.js';

export function needTask(task: string[], method: string): void {
  if (task.length === 0) throw new TadpoleError('TADPOLE_INPUT', `${method}: the task text has no sentences`);
}

export function needGeneral(general: string[], method: string): void {
  if (general.length === 0) throw new TadpoleError('TADPOLE_USAGE', `${method} needs a general-domain sample (--general FILE)`);
}
