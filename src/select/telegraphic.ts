/**
 * Telegraphic tasks. A task written as headlines, paper titles or
 * keywords ("Injured Heskey to miss England friendly") carries about half the function words
 * of running text. Fitted against a corpus of prose, the default's classifier and DSIR then
 * learn "has function words" as the surest sign of the corpus, and the text they rank first
 * is whatever lacks them: hockey statistics tables, signatures and for-sale ads from a forum
 * (on the check suite's news-titles mix, forum posts were 44% of the kept text). When the
 * task's share of function words is well below the corpus sample's, the default leaves
 * function words out of the features (`chars-folded-content`, features.ts), so only content
 * words and their subwords speak for the domain.
 *
 * The threshold sits in a wide gap: over the 16 suite mixes and the 7 prose mixes of the
 * check suite the task's share was 0.72-1.17 of the sample's; on the three headline and
 * title tasks, 0.43-0.49 (docs/research.md, "Telegraphic tasks").
 */
import { functionWordShare } from '../text/function-words.js';
import { parseComponentSpec } from './component-spec.js';

export const TELEGRAPHIC_DEFAULTS = {
  /** Below this ratio of the task's function-word share to the sample's, the task is telegraphic. */
  ratio: 0.6,
} as const;

export const FUNCTION_WORD_MODES = ['auto', 'keep', 'skip'] as const;
export type FunctionWordMode = (typeof FUNCTION_WORD_MODES)[number];

export interface FunctionWordFigures {
  /** Share of the task's word tokens that are function words. */
  task: number;
  /** The same for the general (corpus) sample. */
  general: number;
  /** Whether the features leave function words out. */
  skipped: boolean;
  mode: FunctionWordMode;
}

export function functionWordFigures(task: readonly string[], general: readonly string[], mode: FunctionWordMode): FunctionWordFigures {
  const t = functionWordShare(task);
  const g = functionWordShare(general);
  const skipped = mode === 'skip' || (mode === 'auto' && g > 0 && t < TELEGRAPHIC_DEFAULTS.ratio * g);
  return { task: t, general: g, skipped, mode };
}

/**
 * The candidate with every subword-feature component (features chars-folded, the
 * classifier's default) on the same features without function words. Components on other
 * features, or methods without hashed features, are left as they are.
 */
export function withoutFunctionWords(candidate: string): string {
  return candidate
    .split('+')
    .map((part) => {
      const { name, options } = parseComponentSpec(part);
      const features = options.features ?? (name === 'classifier' ? 'chars-folded' : undefined);
      if ((name !== 'classifier' && name !== 'dsir') || features !== 'chars-folded') return part;
      const out = { ...options, features: 'chars-folded-content' };
      return [name, ...Object.entries(out).map(([k, v]) => `${k}=${v}`)].join(':');
    })
    .join('+');
}

export function describeFunctionWords(f: FunctionWordFigures): string {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const shares = `function words are ${pct(f.task)} of the task's words and ${pct(f.general)} of the corpus sample's`;
  if (f.mode === 'skip') return `auto: ${shares}; left out of the features (functionWords=skip)`;
  if (f.mode === 'keep') return `auto: ${shares}; kept in the features (functionWords=keep)`;
  return f.skipped
    ? `auto: ${shares}: the task reads as headlines or titles, so function words are left out of the features (--option functionWords=keep keeps them)`
    : `auto: ${shares}`;
}
