import type { EvalResult } from '../eval/run.js';
import { shareInWords } from '../cut/share-estimate.js';
import { factorLabel } from '../eval/share-cuts.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function grid(rows: string[][], rightFrom: number): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => r.map((cell, c) => (c >= rightFrom ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number))).join('  ').trimEnd())
    .join('\n');
}

/**
 * The Figure 5 table: methods × sources kept share (of sentences, the paper's measure), then
 * precision, the in-domain share of the kept characters (the selection suite's measure, which
 * a single spec's table would otherwise hide), recall, seconds.
 */
export function formatTable(r: EvalResult): string {
  const head = [
    `${r.spec}: keep ${pct(r.keep)} of ${r.keepBy}${r.keepRule === 'share' ? ` (the ${r.inDomain} share of the mix's ${r.keepBy})` : ''}, segments of ${r.segment}, seed ${r.seed}; in-domain: ${r.inDomain}`,
    `task: ${r.taskSentences} sentences; general sample: ${r.generalSentences} sentences`,
    `per source: share of the kept sentences; precision: ${r.inDomain} share of the kept sentences; chars: of the kept characters (the suite's measure); recall: share of ${r.inDomain} sentences kept`,
    '',
  ];
  const rows: string[][] = [['method', ...r.labels, 'precision', 'chars', 'recall', 'seconds']];
  const mixTotal = r.mix.reduce((a, m) => a + m.sentences, 0);
  rows.push(['(mix)', ...r.mix.map((m) => pct(m.share)), '', '', '', '']);
  for (const m of r.methods) {
    rows.push([m.name, ...r.labels.map((l) => pct(m.kept_share[l] ?? 0)), pct(m.precision), pct(m.precisionChars), pct(m.recall), m.seconds.toFixed(1)]);
  }
  const mixLine = `mix: ${mixTotal} sentences in ${r.mix.reduce((a, m) => a + m.docs, 0)} documents (${r.mix.map((m) => `${m.label} ${m.sentences}`).join(', ')})`;
  // The inspect + --avoid rows: which groups the labels avoided, and the first cut's figure.
  const groupLines = r.methods.flatMap((m) => {
    const g = m.keptGroups;
    if (!g) return [];
    const avoided = g.avoided.map((id) => g.groups[id - 1]);
    const share = avoided.reduce((a, x) => a + (x?.share ?? 0), 0);
    const groups = g.groups.map((x, i) => `${i + 1}: ${pct(x.share)} (${pct(x.outOfDomain)} out of domain)`).join(', ');
    const by = g.pick === 'offered' ? ' offered by inspect' : '';
    const none = g.pick === 'offered' ? 'inspect offered no --avoid, nothing avoided' : 'no group mostly out of domain, nothing avoided';
    const what = g.avoided.length ? `avoided group${g.avoided.length === 1 ? '' : 's'} ${g.avoided.join(', ')}${by} (${pct(share)} of the kept text), ${g.sentences} sentences` : none;
    return [`${m.name}: the first cut kept ${pct(g.precisionCharsBefore)} ${r.inDomain} (chars) in groups ${groups}; ${what}`];
  });
  // What filter would estimate of the mix, beside the truth (cut/share-estimate.ts).
  const shareLines = r.methods.flatMap((m) =>
    m.taskShare || m.taskShareNone ? [`${m.name}: looks like the task: ${shareInWords({ ...(m.taskShare ? { share: m.taskShare } : {}), ...(m.taskShareNone ? { none: m.taskShareNone } : {}) })}; ${r.inDomain} is ${pct(r.inDomainShare)} of the sentences`] : [],
  );
  return [...head, grid(rows, 1), '', mixLine, ...groupLines, ...shareLines, ...shareCuts(r)].join('\n') + '\n';
}

/**
 * With keep "share": every method's one fit cut at 0.5x, 1x and 2x the in-domain share, in
 * characters. A spec with a fixed keep has them in --json only: its table cuts at its own keep.
 */
function shareCuts(r: EvalResult): string[] {
  const cuts = r.methods[0]?.atShare ?? [];
  if (r.keepRule !== 'share' || cuts.length === 0) return [];
  const rows: string[][] = [['method', ...cuts.flatMap((c) => [`precision ${factorLabel(c.factor)}`, `recall ${factorLabel(c.factor)}`])]];
  for (const m of r.methods) rows.push([m.name, ...m.atShare.flatMap((c) => [pct(c.precisionChars), pct(c.recallChars)])]);
  return [
    '',
    `at ${cuts.map((c) => factorLabel(c.factor)).join(', ')} the ${r.inDomain} share (keep ${cuts.map((c) => pct(c.keep)).join(', ')} of ${r.keepBy}; one fit, sized for 1x): precision: ${r.inDomain} share of the kept characters; recall: share of ${r.inDomain} characters kept`,
    grid(rows, 1),
  ];
}

/** The --json shape: {"methods":[{"name","embedder","kept_share","precision","recall","seconds"}], ...context}. */
export function toJSON(r: EvalResult): Record<string, unknown> {
  return {
    spec: r.spec,
    in_domain: r.inDomain,
    keep: r.keep,
    keep_by: r.keepBy,
    keep_rule: r.keepRule,
    in_domain_share: r.inDomainShare,
    segment: r.segment,
    seed: r.seed,
    mix: Object.fromEntries(r.mix.map((m) => [m.label, { docs: m.docs, bytes: m.bytes, sentences: m.sentences, share: m.share }])),
    task_sentences: r.taskSentences,
    general_sentences: r.generalSentences,
    methods: r.methods.map((m) => ({
      name: m.name,
      embedder: m.embedder,
      kept_share: m.kept_share,
      precision: m.precision,
      precision_chars: m.precisionChars,
      recall: m.recall,
      kept_text: m.keptText,
      seconds: m.seconds,
      kept_sentences: m.keptSentences,
      total_sentences: m.totalSentences,
      at_share: m.atShare.map((c) => ({ factor: c.factor, keep: c.keep, kept_text: c.keptText, precision_chars: c.precisionChars, recall_chars: c.recallChars })),
      ...(m.taskShare ? { task_share: m.taskShare } : {}),
      ...(m.taskShareNone ? { task_share_none: m.taskShareNone } : {}),
      ...(m.keptGroups ? { kept_groups: { pick: m.keptGroups.pick, groups: m.keptGroups.groups, avoided: m.keptGroups.avoided, sentences: m.keptGroups.sentences, precision_chars_before: m.keptGroups.precisionCharsBefore } } : {}),
    })),
  };
}
