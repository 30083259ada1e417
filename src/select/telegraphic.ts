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
import { formatComponentSpec, parseComponentSpec } from './component-spec.js';

export const TELEGRAPHIC_DEFAULTS = {
  /** Below this ratio of the task's function-word share to the sample's, the task is telegraphic. */
  ratio: 0.6,
  /**
   * The share of the task's sentences that must look like titles (no final stop, at most
   * `titleWords` words) before the fit says the task "reads as headlines or titles". Few
   * function words alone do not make titles: a Debian changelog's terse items have as few (13% of
   * its words against 37% of a news and abstracts sample) and half of its sentences lack a stop,
   * yet a user would not call them headlines; AG News titles read 0.86 merged as text, 0.99 one
   * per line. Below the share, the task is described by its figures only.
   */
  titleShare: 0.75,
  titleWords: 20,
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
  /** Share of the task's sentences that look like titles (titleShare); absent from older models. */
  titles?: number;
}

/** Sentences without a final stop and of at most titleWords words: headlines, titles, keywords. */
export function titleShare(sentences: readonly string[]): number {
  if (sentences.length === 0) return 0;
  let titles = 0;
  for (const s of sentences) {
    const t = s.trim();
    if (!/[.!?…:;]["'”’)\]]*$/.test(t) && t.split(/\s+/).length <= TELEGRAPHIC_DEFAULTS.titleWords) titles++;
  }
  return titles / sentences.length;
}

/** Whether the task can be called titles with confidence (titleShare). */
export function readsAsTitles(f: FunctionWordFigures): boolean {
  return f.titles !== undefined && f.titles >= TELEGRAPHIC_DEFAULTS.titleShare;
}

/** The task in a user's words, where it is sure; otherwise by what was measured. */
export function telegraphicTask(f: FunctionWordFigures): string {
  return readsAsTitles(f) ? 'a task of titles' : 'a task with few function words';
}

/** Whether a task with `task` of its words function words is telegraphic beside a text with `general` of them. */
export function telegraphicShares(task: number, general: number): boolean {
  return general > 0 && task < TELEGRAPHIC_DEFAULTS.ratio * general;
}

export function functionWordFigures(task: readonly string[], general: readonly string[], mode: FunctionWordMode): FunctionWordFigures {
  const t = functionWordShare(task);
  const g = functionWordShare(general);
  const skipped = mode === 'skip' || (mode === 'auto' && telegraphicShares(t, g));
  return { task: t, general: g, skipped, mode, titles: titleShare(task) };
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
      return formatComponentSpec({ name, options: out });
    })
    .join('+');
}

export function describeFunctionWords(f: FunctionWordFigures): string {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const shares = `function words are ${pct(f.task)} of the task's words and ${pct(f.general)} of the corpus sample's`;
  if (f.mode === 'skip') return `contrast: ${shares}; left out of the features (functionWords=skip)`;
  if (f.mode === 'keep') return `contrast: ${shares}; kept in the features (functionWords=keep)`;
  if (!f.skipped) return `contrast: ${shares}`;
  const why = readsAsTitles(f) ? ': the task reads as headlines or titles, so' : '; with so few in the task,';
  return `contrast: ${shares}${why} function words are left out of the features (--option functionWords=keep keeps them)`;
}
