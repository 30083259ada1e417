/**
 * `--option style=on`: a third view beside the default pair, a classifier on style n-grams
 * (features=style, text/style-ngrams.ts: function words, word shapes and punctuation, so the
 * genre of a sentence without its topic). Moving by consensus (moveBy=consensus), a segment
 * then goes to the task side only when the topic views and the style view all rank it high:
 * forum posts about the task's sport, or encyclopedia articles about its subject, no longer
 * move. It is the strongest remedy measured when the kept text is the task's topic in another
 * genre, but it sinks tasks whose wanted text is written unlike the task, and it is weak
 * where the domain is scarce, so it is an option (docs/research.md, "A style view").
 * `style=guard` only lets the view veto moves (self-training.ts's guard): the filtering model
 * stays the candidate.
 */
import { parseComponentSpec } from './component-spec.js';

export const STYLE_MODES = ['off', 'on', 'guard'] as const;
export type StyleMode = (typeof STYLE_MODES)[number];

/**
 * style=guard: the share of the sample's segments, best first by the style view, that a move
 * may take from; 0.3 did better than 0.5 on every weak mix measured (docs/research.md,
 * "A style view").
 */
export const STYLE_GUARD_SHARE = 0.3;

/** The style view as an ensemble component. */
export const STYLE_COMPONENT = 'classifier:rounds=0:features=style';

/**
 * Each candidate with the style view added, unless style is not `on`, the task reads as
 * titles (a headline has too few function words for a style: with one, the title mixes
 * lost), or the candidate already has a style component.
 */
export function withStyleView(candidates: string[], mode: StyleMode, telegraphic: boolean): string[] {
  if (mode !== 'on' || telegraphic) return candidates;
  return candidates.map((c) => (c.split('+').some((p) => parseComponentSpec(p).options.features === 'style') ? c : `${c}+${STYLE_COMPONENT}`));
}

export function describeStyleView(mode: StyleMode, telegraphic: boolean): string {
  if (telegraphic) return `contrast: style=${mode}, but the task carries too few function words for a style view: left out`;
  return mode === 'guard'
    ? `contrast: style=guard: a style view (${STYLE_COMPONENT}) fitted in each self-training round vetoes moving any segment it ranks in its less task-like part`
    : `contrast: style=on: every candidate gets a style view (${STYLE_COMPONENT}); with moveBy=consensus a segment moves only when every view ranks it high`;
}
