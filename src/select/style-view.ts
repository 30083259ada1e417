/**
 * `--option style=on`: a third view beside the default pair, a classifier on style n-grams
 * (features=style, text/style-ngrams.ts: function words, word shapes and punctuation, so the
 * genre of a sentence without its topic). Moving by consensus (moveBy=consensus), a segment
 * then goes to the task side only when the topic views and the style view all rank it high:
 * forum posts about the task's sport, or encyclopedia articles about its subject, no longer
 * move. On the check suite's topic-sport mix (sport news as the task, Usenet sport groups
 * among the distractors) it kept 83.3 / 91.3 / 73.6% in-domain over three draws, against
 * 57.6 / 60.6 / 41.6% by default and 66.4 / 68.4 / 47.3% by consensus alone; with the domain
 * scarce it is as weak as consensus (3% in-domain: worst 16.7%), so it is not the default
 * (scripts/research/README.md, "A style view"). `style=guard` only lets the view veto moves
 * (self-training.ts's guard): the filtering model stays the candidate, and the worst of the
 * scarce settings stays 0-3 points below the default's.
 */
import { parseComponentSpec } from './component-spec.js';

export const STYLE_MODES = ['off', 'on', 'guard'] as const;
export type StyleMode = (typeof STYLE_MODES)[number];

/**
 * style=guard: the share of the sample's segments, best first by the style view, that a move
 * may take from. 0.3 against 0.5 on the weak mixes (draw 0): topic-sport 79.1 against 64.6,
 * topic-sport-10 54.4 against 50.5, news-brown 51.2 against 49.4, at 3% in-domain news-brown
 * 24.8 against 21.4 (scripts/research/README.md, "A style view").
 */
export const STYLE_GUARD_SHARE = 0.3;

/** The style view as an ensemble component. */
export const STYLE_COMPONENT = 'classifier:rounds=0:features=style';

/**
 * Each candidate with the style view added, unless style is not `on`, the task reads as
 * titles (a headline has too few function words for a style: with one, sport-titles went
 * 48.7 -> 23.9 and 39.0 -> 19.2 on two draws), or the candidate already has a style component.
 */
export function withStyleView(candidates: string[], mode: StyleMode, telegraphic: boolean): string[] {
  if (mode !== 'on' || telegraphic) return candidates;
  return candidates.map((c) => (c.split('+').some((p) => parseComponentSpec(p).options.features === 'style') ? c : `${c}+${STYLE_COMPONENT}`));
}

export function describeStyleView(mode: StyleMode, telegraphic: boolean): string {
  if (telegraphic) return `contrast: style=${mode}, but the task reads as headlines or titles, which carry too few function words for a style view: left out`;
  return mode === 'guard'
    ? `contrast: style=guard: a style view (${STYLE_COMPONENT}) fitted in each self-training round vetoes moving any segment it ranks in its less task-like part`
    : `contrast: style=on: every candidate gets a style view (${STYLE_COMPONENT}); with moveBy=consensus a segment moves only when every view ranks it high`;
}
