/**
 * Text the user does not want kept (`fit --avoid FILE`).
 *
 * Where the default fails, it keeps the task's topic in another genre (Usenet hockey posts
 * for a task of sports news) or the task's genre on another topic, and which of the two the
 * user wants is not in the task text. A few hundred sentences of the unwanted text settle
 * it: they join the general side of every fit of the default's pair, so the classifier
 * learns them as the corpus and DSIR's general model counts them, and self-training, which
 * moves only the corpus sample's own segments, never moves them to the task side.
 *
 * Their weight is a share of the sample's, whatever their number: few sentences are counted
 * several times, many are subsampled. A fifth gave the best worst mix over eleven mixes and
 * three sizes of avoided text; more, and avoided text that shares the task's vocabulary takes
 * in-domain text with it (docs/research.md, "Text to avoid").
 */
import { Rng } from '../core/rng.js';
import { optionReader, type OptionDecl } from '../core/option-decl.js';

export const AVOID_DEFAULTS = {
  /** The avoided sentences' weight, as a share of the general sample's (see above). */
  share: 0.2,
} as const;

export interface AvoidRecord {
  /** Sentences given. */
  sentences: number;
  /** Of those, how many are used (a seeded subsample when they outweigh `share`). */
  used: number;
  /** How many times each used sentence is counted on the general side. */
  copies: number;
  share: number;
}

export const AVOID_SHARE_OPTION: OptionDecl = { name: 'avoidShare', type: 'number', default: AVOID_DEFAULTS.share, min: 0, max: 1, minOpen: true, maxOpen: true, help: 'the weight of the --avoid text, as a share of the general sample\'s' };

/** The fit's `avoidShare` option (a share in (0, 1)), or the default. */
export function avoidShareOf(options: Record<string, unknown>): number {
  return optionReader({ label: 'method contrast', options: [AVOID_SHARE_OPTION] }, options).number('avoidShare');
}

/** How many avoided sentences the fit weighs against a sample of `generalSize`: `share` of it. */
export function avoidTarget(share: number, generalSize: number): number {
  return Math.max(1, Math.round(share * generalSize));
}

/** The avoided sentences as they join the general side: about `share` x `generalSize` in all. */
export function avoidSide(avoid: string[], generalSize: number, share: number, seed: number): { side: string[]; record: AvoidRecord } {
  const target = avoidTarget(share, generalSize);
  const used = avoid.length > target ? new Rng(seed).sample(avoid.length, target).sort((a, b) => a - b).map((i) => avoid[i] as string) : avoid;
  const copies = Math.max(1, Math.round(target / used.length));
  const side: string[] = [];
  for (let c = 0; c < copies; c++) side.push(...used);
  return { side, record: { sentences: avoid.length, used: used.length, copies, share } };
}

export function describeAvoid(r: AvoidRecord, generalSize: number): string {
  const weight = (100 * r.used * r.copies) / generalSize;
  const used = r.used < r.sentences ? `a seeded ${r.used} of ${r.sentences}` : `${r.sentences}`;
  return `avoid: ${used} sentences not to keep join the general side of every fit, each counted ${r.copies} time${r.copies === 1 ? '' : 's'} (${weight.toFixed(0)}% of the sample's weight)`;
}
