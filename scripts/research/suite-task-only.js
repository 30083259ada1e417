// The suite in the "fit --task only" setting, through the real CLI: for every spec of
// corpora/suite, `tadpole eval --work-dir` writes the mix and the task (method random only,
// for speed), then `tadpole fit --task task.jsonl` (no --general: the model is completed at
// filter time from a seeded sample of the corpus) and `tadpole filter -m model mix.jsonl`;
// the share of kept characters from the in-domain source is read back from the output.
// usage: node scripts/research/suite-task-only.js [spec names...]   (work files in $TMPDIR; env
// SUITE_DIR=corpora/suite-fresh for another suite)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'tadpole.js');
const SUITE = process.env.SUITE_DIR ?? 'corpora/suite';
const names = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(join(ROOT, SUITE)).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));

function run(args) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`tadpole ${args.join(' ')}: ${r.stderr}`);
  return r;
}

const rows = [];
for (const name of names) {
  const spec = JSON.parse(readFileSync(join(ROOT, SUITE, `${name}.json`), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), `tadpole-task-only-${name}-`));
  try {
    run(['eval', join(ROOT, SUITE, `${name}.json`), '--methods', 'random', '--work-dir', dir]);
    const model = join(dir, 'model.json');
    const fit = run(['fit', '--task', join(dir, 'task.jsonl'), '--seed', String(spec.seed), '-o', model]);
    const out = join(dir, 'kept.jsonl');
    const f = run(['filter', '-m', model, join(dir, 'mix.jsonl'), '-o', out, '--keep', String(spec.keep), '--segment', String(spec.segment)]);
    let all = 0;
    let inDomain = 0;
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line);
      all += r.text.length;
      if (r.source === spec.inDomain) inDomain += r.text.length;
    }
    const auroc = /held-out AUROC[^\n]*/.exec(f.stderr)?.[0] ?? '';
    const warning = /warning:[^\n]*/.exec(f.stderr)?.[0] ?? '';
    rows.push([name, inDomain / all]);
    console.log(`${name}: ${(100 * inDomain / all).toFixed(1)}% in-domain characters kept; ${auroc}${warning ? `; ${warning}` : ''}`);
    void fit;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const vals = rows.map((r) => r[1]);
console.log(`\nfit --task only (completed from the corpus): mean ${(100 * vals.reduce((a, b) => a + b, 0) / vals.length).toFixed(1)}%, min ${(100 * Math.min(...vals)).toFixed(1)}%`);
