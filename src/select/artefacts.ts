/**
 * Task artefacts. A task file often carries tokens its text does not:
 * a label or a row number before each sentence ("positive\t...", "1234\t..."), a prefix or a
 * separator ("Claim: ...", "... [SEP]"). No corpus sentence has them, so they rank no corpus
 * text; but each alone tells the task from the corpus, and a regression of task against corpus
 * then stops learning from the task side: every other weight comes from the corpus side alone.
 * With such a token on every task sentence the default lost most of its in-domain text on the
 * suites' hardest mixes (docs/research.md, "Task artefacts").
 *
 * So before any fit the task sentences lose the tokens that sit where artefacts sit and are at
 * least 100 times rarer there in the corpus sample: a token that is the first (or the last) of
 * at least a quarter of the task sentences, or that is anywhere in at least half of them. A
 * token is a run of letters and digits, lower-cased, every digit read as 0 (so "1234" and
 * "87" match as "0000" and "00"). On the 36 tasks of the four selection suites the nearest
 * real tokens are well below: "does" first in 20% of a task of questions (0.14% of the corpus's
 * first tokens), "et" and "al" in 40% of a task of citation sentences (0.13-0.19%); none is
 * removed, and every suite figure stays the same to the digit. It can misfire on a task about
 * one thing whose domain is under about one percent of the corpus (a word in half the task,
 * 100 times rarer in the sample): the fit names what it strips, and artefacts=keep keeps it.
 */

export const ARTEFACT_DEFAULTS = {
  /** Share of the task sentences whose first (last) token it is, at least. */
  edgeShare: 0.25,
  /** Share of the task sentences that hold it anywhere, at least. */
  anyShare: 0.5,
  /** How many times rarer the same place is in the corpus sample, at least. */
  ratio: 100,
  /** Task sentences that must hold it, at least (a handful cannot tell an artefact from a topic). */
  minSentences: 20,
} as const;

/** `auto`: find and strip them (the default); `keep`: leave the task as given. */
export const ARTEFACT_MODES = ['auto', 'keep'] as const;

export type ArtefactPlace = 'first' | 'last' | 'any';

export interface TaskArtefact {
  /** The token as matched: lower case, digits read as 0. */
  token: string;
  place: ArtefactPlace;
  /** Share of the task sentences with the token at that place, and of the corpus sample's. */
  taskShare: number;
  corpusShare: number;
}

const TOKEN = /[\p{L}\p{N}]+/gu;
const DIGIT = /\p{N}/gu;

function keyOf(token: string): string {
  return token.toLowerCase().replace(DIGIT, '0');
}

/** In how many sentences each token is the first, the last, or anywhere. */
export interface PlaceCounts {
  first: Map<string, number>;
  last: Map<string, number>;
  any: Map<string, number>;
  sentences: number;
}

type Places = Record<ArtefactPlace, ReadonlySet<string>>;

/**
 * Place counts of `sentences`; with `only`, of those tokens alone (the rest are not counted,
 * and a sentence's inner tokens are not even keyed when no token is asked for anywhere).
 */
export function countPlaces(sentences: readonly string[], only?: Places): PlaceCounts {
  const c: PlaceCounts = { first: new Map(), last: new Map(), any: new Map(), sentences: sentences.length };
  const add = (place: ArtefactPlace, k: string) => {
    if (!only || only[place].has(k)) c[place].set(k, (c[place].get(k) ?? 0) + 1);
  };
  const everyToken = !only || only.any.size > 0;
  for (const s of sentences) {
    const tokens = s.match(TOKEN);
    if (!tokens) continue;
    add('first', keyOf(tokens[0] as string));
    add('last', keyOf(tokens[tokens.length - 1] as string));
    if (everyToken) for (const k of new Set(tokens.map(keyOf))) add('any', k);
  }
  return c;
}

/** Tokens whose share of the task sentences at a place is high enough for an artefact there. */
function candidatesOf(t: PlaceCounts): Places {
  const at = (place: ArtefactPlace) => {
    const least = place === 'any' ? ARTEFACT_DEFAULTS.anyShare : ARTEFACT_DEFAULTS.edgeShare;
    return new Set([...t[place]].filter(([, n]) => n >= ARTEFACT_DEFAULTS.minSentences && n / t.sentences >= least).map(([token]) => token));
  };
  return { first: at('first'), last: at('last'), any: at('any') };
}

/** The task's artefacts against a corpus sample, most frequent first; none without a sample. */
export function findTaskArtefacts(task: readonly string[], general: readonly string[]): TaskArtefact[] {
  if (task.length === 0 || general.length === 0) return [];
  const t = countPlaces(task);
  const candidates = candidatesOf(t);
  if (candidates.first.size + candidates.last.size + candidates.any.size === 0) return [];
  // The sample counts only what could be an artefact: most of this step's time was keying and
  // counting every token of the sample (20,000 sentences) for none of them.
  const g = countPlaces(general, candidates);
  const out: TaskArtefact[] = [];
  const anywhere = new Set<string>();
  // `any` first: a token stripped wherever it is needs no entry for the edges.
  for (const place of ['any', 'first', 'last'] as const) {
    const least = place === 'any' ? ARTEFACT_DEFAULTS.anyShare : ARTEFACT_DEFAULTS.edgeShare;
    for (const [token, n] of t[place]) {
      if (n < ARTEFACT_DEFAULTS.minSentences || (place !== 'any' && anywhere.has(token))) continue;
      const taskShare = n / t.sentences;
      const corpusShare = (g[place].get(token) ?? 0) / g.sentences;
      if (taskShare >= least && corpusShare * ARTEFACT_DEFAULTS.ratio <= taskShare) {
        out.push({ token, place, taskShare, corpusShare });
        if (place === 'any') anywhere.add(token);
      }
    }
  }
  return out.sort((a, b) => b.taskShare - a.taskShare || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
}

/**
 * The sentence without its artefact tokens. A first (last) token goes with what separates it
 * from the next (previous) one ("Claim: ", "\t", " [SEP]"); one inside the sentence leaves a
 * space. A sentence left with no token keeps its text: an empty task sentence would tell
 * nothing, and one that is all artefact is rare.
 */
export function stripArtefacts(sentence: string, artefacts: readonly TaskArtefact[]): string {
  if (artefacts.length === 0) return sentence;
  const spans = [...sentence.matchAll(TOKEN)];
  const last = spans.length - 1;
  const drop = spans.map((m, i) => {
    const k = keyOf(m[0]);
    return artefacts.some((a) => a.token === k && (a.place === 'any' || (a.place === 'first' && i === 0) || (a.place === 'last' && i === last)));
  });
  let from = 0;
  while (from <= last && drop[from]) from++;
  let to = last;
  while (to >= from && drop[to]) to--;
  if (from > to) return sentence;
  const start = from === 0 ? 0 : (spans[from]!.index as number);
  const end = to === last ? sentence.length : (spans[to]!.index as number) + spans[to]![0].length;
  let out = '';
  let at = start;
  for (let i = from; i <= to; i++) {
    if (!drop[i]) continue;
    const m = spans[i]!;
    out += `${sentence.slice(at, m.index)} `;
    at = (m.index as number) + m[0].length;
  }
  return out + sentence.slice(at, end);
}

export function describeArtefacts(found: readonly TaskArtefact[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(x < 0.01 ? 2 : 0)}%`;
  const where = (a: TaskArtefact) => (a.place === 'any' ? 'in' : `the ${a.place} token of`);
  const list = found.map((a) => `"${a.token}" (${where(a)} ${pct(a.taskShare)} of the task sentences, ${pct(a.corpusShare)} of the corpus sample's)`).join(', ');
  return `task artefacts: ${list}: tokens the task file adds and the corpus lacks (a label, an id, a prefix or separator?) are left out of the task text before fitting (--option artefacts=keep keeps them)`;
}
