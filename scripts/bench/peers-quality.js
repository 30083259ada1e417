// Selection quality beside the peers, on the labelled mixes of a suite: how much of what each
// tool keeps is in-domain text. `tadpole eval` builds every mix (and runs tadpole's default and
// `--method random` on it, as corpora/README.md describes); the published DSIR package
// (`data-selection`, HashedNgramDSIR) and a fastText classifier as DCLM builds one then score the
// same mix's documents against the same task.
//
// Every tool keeps 20% of the mix's text. tadpole by its cut with --keep-by bytes (segments: the
// default's ranking, cut at 20% of the text rather than of the sentences); the peers, which score
// whole documents, keep their top-scored documents until 20% of the mix's UTF-8 bytes (a document is taken while at most half of it passes the 20%: the same
// rule as tadpole's in-memory cut). DSIR ranks by the package's own log importance weights, among
// the documents its length filter lets it choose (its resampling draws by the same weights;
// taking the top ones is the most favourable reading of it for this measure). fastText: the task
// documents labelled positive, the mix's documents negative (the mix is also tadpole's general
// sample), `fasttext supervised -wordNgrams 2 -thread 1`, ranked by the positive class's
// probability. The measure, for every tool: in-domain share of the kept characters (UTF-8 bytes).
//
// Usage: node scripts/bench/peers-quality.js [SPEC.json...]   (default: corpora/suite/*.json)
// Writes BENCH_PEERS_QUALITY_OUT (default docs/benchmarks/results/peers-quality.json), which
// scripts/figures/peers.js draws. Needs the shared corpora, DSIR and fastText as peers.js does
// (TADPOLE_PEER_DSIR, TADPOLE_PEER_PYTHON, TADPOLE_PEER_FASTTEXT).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { dsirPython, runChild } from './peers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const KEEP = 0.2;
const METHODS = ['tadpole (default)', 'random'];

// One document a line. fastText ends a line at the token `</s>` too (its end-of-line token), which
// a document may hold as text (wikitext's parallel-corpus examples): it is dropped, so that one
// line is one document.
const oneLine = (text) => text.replace(/(^|\s)<\/s>(?=\s|$)/g, ' ').replace(/\s+/g, ' ').trim();
const jsonl = (path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Documents in `order` (best first) until `keep` of all bytes, as selectKeptInMemory cuts: in-domain share of the kept bytes, and the share kept. */
export function cutByText(order, docs, inDomain, keep = KEEP) {
  const bytes = docs.map((d) => Buffer.byteLength(d.text));
  const total = bytes.reduce((a, b) => a + b, 0);
  const target = keep * total;
  let kept = 0;
  let keptIn = 0;
  for (const i of order) {
    if (kept + bytes[i] / 2 > target) break;
    kept += bytes[i];
    if (docs[i].source === inDomain) keptIn += bytes[i];
  }
  return { precision: kept > 0 ? keptIn / kept : 0, kept_text: kept / total };
}

function runEval(specs, work) {
  const args = ['bin/tadpole.js', 'eval', ...specs, '--methods', METHODS.join(','), '--keep-by', 'bytes', '--json', '--work-dir', work];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`tadpole eval failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const out = JSON.parse(r.stdout);
  return out.specs ?? [out];
}

function dsir(found, mixFile, taskFile, scratch, docs, inDomain) {
  const weights = join(scratch, 'dsir-weights.json');
  runChild(found.python, [join(ROOT, 'scripts/bench/peers-dsir.py'), mixFile, taskFile, '0', scratch, weights], found.env);
  const w = JSON.parse(readFileSync(weights, 'utf8'));
  if (w.log_weights.length !== docs.length) throw new Error(`DSIR weighed ${w.log_weights.length} documents of ${docs.length}`);
  const order = docs.map((_, i) => i).filter((i) => w.eligible[i]).sort((a, b) => w.log_weights[b] - w.log_weights[a] || a - b);
  return { ...cutByText(order, docs, inDomain), eligible_docs: order.length };
}

function fastText(bin, taskFile, docs, scratch, inDomain) {
  const train = join(scratch, 'fasttext-train.txt');
  const lines = join(scratch, 'mix.txt');
  const task = jsonl(taskFile).map((r) => `__label__task ${oneLine(r.text)}`);
  writeFileSync(train, [...task, ...docs.map((d) => `__label__general ${oneLine(d.text)}`)].join('\n') + '\n');
  writeFileSync(lines, docs.map((d) => oneLine(d.text)).join('\n') + '\n');
  const model = join(scratch, 'fasttext');
  runChild(bin, ['supervised', '-input', train, '-output', model, '-wordNgrams', '2', '-thread', '1', '-verbose', '0']);
  const predicted = runChild(bin, ['predict-prob', `${model}.bin`, lines, '2']).stdout.trimEnd().split('\n');
  if (predicted.length !== docs.length) throw new Error(`fastText scored ${predicted.length} lines for ${docs.length} documents`);
  const p = predicted.map((l) => Number(/__label__task ([\d.e-]+)/.exec(l)?.[1] ?? 0));
  rmSync(`${model}.bin`, { force: true });
  return cutByText(p.map((_, i) => i).sort((a, b) => p[b] - p[a] || a - b), docs, inDomain);
}

async function main() {
  const specs = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(join(ROOT, 'corpora/suite')).filter((f) => f.endsWith('.json')).sort().map((f) => `corpora/suite/${f}`);
  const out = process.env.BENCH_PEERS_QUALITY_OUT ?? join(ROOT, 'docs/benchmarks/results/peers-quality.json');
  const found = dsirPython();
  if (!found.python) throw new Error(`DSIR not found: ${found.why}`);
  const fasttext = process.env.TADPOLE_PEER_FASTTEXT ?? 'fasttext';
  if (spawnSync(fasttext, [], { encoding: 'utf8' }).error) throw new Error(`no fastText binary \`${fasttext}\` (Debian: apt-get install fasttext, or set TADPOLE_PEER_FASTTEXT)`);
  const work = mkdtempSync(join(tmpdir(), 'tadpole-peers-quality-'));
  try {
    const results = runEval(specs, work);
    const mixes = [];
    for (const [i, r] of results.entries()) {
      const dir = specs.length > 1 ? join(work, String(i)) : work;
      const scratch = join(dir, 'peers');
      mkdirSync(scratch);
      const docs = jsonl(join(dir, 'mix.jsonl'));
      const bytes = (d) => Buffer.byteLength(d.text);
      const total = docs.reduce((a, d) => a + bytes(d), 0);
      const inText = docs.filter((d) => d.source === r.in_domain).reduce((a, d) => a + bytes(d), 0);
      const by = Object.fromEntries(r.methods.map((m) => [m.name, { precision: m.precision_chars, kept_text: m.kept_text }]));
      const row = {
        spec: r.spec.replace(/^suite-/, ''),
        in_domain: r.in_domain,
        in_domain_text: inText / total,
        documents: docs.length,
        tools: {
          default: by['tadpole (default)'],
          dsir: dsir(found, join(dir, 'mix.jsonl'), join(dir, 'task.jsonl'), scratch, docs, r.in_domain),
          fasttext: fastText(fasttext, join(dir, 'task.jsonl'), docs, scratch, r.in_domain),
          random: by.random,
        },
      };
      mixes.push(row);
      const t = row.tools;
      console.log(`${row.spec}: default ${(t.default.precision * 100).toFixed(1)}%, DSIR ${(t.dsir.precision * 100).toFixed(1)}%, fastText ${(t.fasttext.precision * 100).toFixed(1)}%, random ${(t.random.precision * 100).toFixed(1)}% in-domain of the kept text`);
    }
    const py = spawnSync(found.python, ['-c', 'import numpy, nltk; from importlib.metadata import version; print(numpy.__version__, nltk.__version__, version("data-selection"))'], { encoding: 'utf8', env: { ...process.env, ...found.env } }).stdout.trim().split(' ');
    const file = {
      what: 'in-domain share of the kept characters (UTF-8 bytes) per mix; every tool keeps 20% of the mix text',
      command: `node scripts/bench/peers-quality.js ${specs.map((s) => relative(ROOT, join(ROOT, s))).join(' ')}`,
      date: new Date().toISOString().slice(0, 10),
      versions: { node: process.version, numpy: py[0], nltk: py[1], 'data-selection': py[2], fasttext: 'Debian package' },
      keep: KEEP,
      tools: {
        default: 'tadpole default (contrast), as tadpole eval runs it, with --keep-by bytes',
        dsir: 'DSIR (data-selection, HashedNgramDSIR): top importance weights',
        fasttext: 'fastText classifier (DCLM recipe)',
        random: 'tadpole --method random, with --keep-by bytes',
      },
      mixes,
    };
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, JSON.stringify(file, null, 2) + '\n');
    console.log(`wrote ${relative(process.cwd(), out)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
