/**
 * A component of an ensemble or an auto candidate, with its own options:
 * `name[:key=value[:key=value...]]`, e.g. `dsir:features=chars-folded`. The default
 * (auto.ts) needs DSIR on subword features inside the ensemble while `--method dsir` stays
 * the paper's word 1-2-grams; a `+`/`,` separated list keeps working because neither
 * character can appear in a component spec.
 */
import { TadpoleError } from '../core/errors.js';

export interface ComponentSpec {
  name: string;
  options: Record<string, string>;
}

export function parseComponentSpec(spec: string): ComponentSpec {
  const [name, ...pairs] = spec.split(':');
  const options: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0 || at === p.length - 1) throw new TadpoleError('TADPOLE_USAGE', `component "${spec}": "${p}" is not key=value; write e.g. dsir:features=chars-folded`);
    options[p.slice(0, at)] = p.slice(at + 1);
  }
  return { name: name as string, options };
}

/** The spec text of a component: what parseComponentSpec reads back. */
export function formatComponentSpec(spec: ComponentSpec): string {
  return [spec.name, ...Object.entries(spec.options).map(([k, v]) => `${k}=${v}`)].join(':');
}
