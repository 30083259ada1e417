// Separability by part of the corpus: how well does a classifier tell the
// task from each part of the general sample? For each part, the held-out AUROC (20% of the task,
// 20% of the part) of a task-vs-part fit of JUDGE (default the classifier without
// self-training), measured as `auto` measures a candidate (chooseCandidate): 0.5 = the part reads as the task. Is the in-domain part the least separable?
//
// PARTS=source: the sample split by the mix's labels (an oracle: no user has them);
// PARTS=words: the sample's segments grouped as `tadpole inspect` groups text (LSA of word
// 1-2-grams, spherical k-means, K groups); PARTS=style: the same on each sentence written as its
// style (function words kept, every other word its shape, punctuation as words), so that groups
// follow genre rather than topic. For groups it prints each group's AUROC, size and in-domain
// share, least separable first.
//
// usage: node scripts/research/separability.js [SPEC...]   (default: every spec of SUITE_DIR,
//   default corpora/suite; the mix cached by suite.js: run suite.js on it first)
//   env PARTS=source|words|style, K=8, JUDGE=classifier:rounds=0
import '../../dist/select/registry.js'; // registers the methods auto's candidates are fitted with
import { AUTO_DEFAULTS, chooseCandidate } from '../../dist/select/auto.js';
import { groupText } from '../../dist/inspect/groups.js';
import { FUNCTION_WORDS } from '../../dist/text/function-words.js';
import { cachedMix, specNames } from './suite-cache.js';

const PARTS = process.env.PARTS ?? 'source';
const K = Number(process.env.K ?? 8);
/** A component spec, as in --option candidates (component-spec.ts). */
const JUDGE = process.env.JUDGE ?? 'classifier:rounds=0';

const FW = new Set(FUNCTION_WORDS);
const PUNCT = { '.': 'qdot', ',': 'qcomma', '?': 'qques', '!': 'qexcl', '"': 'qquote', '\u201c': 'qquote', '\u201d': 'qquote', "'": 'qapos', '(': 'qparen', ')': 'qparen', ':': 'qcolon', ';': 'qsemi', '-': 'qdash', $: 'qdollar', '%': 'qpct' };
/** A sentence as its style: function words, word shapes (case, length), numbers and punctuation as words. */
function styleOf(s) {
  const out = [];
  for (const [w] of s.matchAll(/\p{L}+|\p{N}+|[^\s\p{L}\p{N}]/gu)) {
    if (/^\p{N}/u.test(w)) out.push(w.length > 2 ? 'qnumlong' : 'qnum');
    else if (/^\p{L}/u.test(w)) {
      if (FW.has(w.toLowerCase())) out.push(w.toLowerCase());
      else out.push((w.length > 1 && w === w.toUpperCase() ? 'qcaps' : w[0] !== w[0].toLowerCase() ? 'qcap' : 'qlow') + (w.length <= 3 ? 's' : w.length <= 7 ? 'm' : 'l'));
    } else if (PUNCT[w]) out.push(PUNCT[w]);
  }
  return out.join(' ');
}

/** Held-out AUROC of JUDGE fitted on the task against the part, as `auto` measures a candidate. */
async function heldOutAuroc(task, part, seed) {
  const choice = await chooseCandidate({ task, general: part, seed, options: {} }, [JUDGE], AUTO_DEFAULTS.holdout);
  return choice.candidates[0].auroc;
}

for (const { name, file } of specNames(process.argv.slice(2))) {
  const { spec, c } = await cachedMix(file);
  if (!c) {
    console.log(`${name}: no cached mix (run SUITE_DIR=... node scripts/research/suite.js random on it first)`);
    continue;
  }
  const labelOf = (i) => c.labels[c.segs[c.generalGroups[i]][0]];
  const inLabel = c.labels[c.inIdx];
  if (PARTS === 'source') {
    const by = new Map();
    c.general.forEach((s, i) => (by.get(labelOf(i)) ?? by.set(labelOf(i), []).get(labelOf(i))).push(s));
    const rows = [];
    for (const [l, xs] of by) if (xs.length >= 200) rows.push([l, await heldOutAuroc(c.task, xs, spec.seed)]);
    rows.sort((a, b) => a[1] - b[1]);
    console.log(`${name.padEnd(24)} ${rows[0][0] === inLabel ? 'in-domain least separable' : 'MISS                     '}  ${rows.map(([l, a]) => `${l === inLabel ? '*' : ''}${l} ${a.toFixed(3)}`).join('  ')}`);
    continue;
  }
  const view = PARTS === 'style' ? c.general.map(styleOf) : c.general;
  const groups = groupText(view, c.generalGroups, { groups: K, seed: spec.seed });
  const rows = [];
  for (const g of groups) {
    if (g.indices.length < 100) continue;
    const inShare = g.indices.filter((i) => labelOf(i) === inLabel).length / g.indices.length;
    rows.push({ a: await heldOutAuroc(c.task, g.indices.map((i) => c.general[i]), spec.seed), n: g.indices.length, inShare });
  }
  rows.sort((x, y) => x.a - y.a);
  console.log(`${name.padEnd(24)} least separable group ${(100 * rows[0].inShare).toFixed(0).padStart(3)}% in-domain;  ${rows.map((r) => `${r.a.toFixed(3)} (${r.n}, ${(100 * r.inShare).toFixed(0)}%)`).join('  ')}`);
}
