#!/usr/bin/env node
// What --keep counts: the default run by `tadpole eval` on every mix of the given suites, once
// with --keep-by sentences and once with --keep-by bytes. For each suite and unit: how much of
// the text (segment bytes) the asked share kept, how far that is from the asked share (relative:
// |kept / asked - 1|), and the in-domain share of the kept characters.
//
// Usage: node scripts/research/keep-by.js [SUITE_DIR...]   (default: every corpora/suite*/)
// KEEPBY_CACHE=DIR keeps each eval's JSON there (DIR/<suite>.<unit>.json) and reuses it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const UNITS = ['sentences', 'bytes'];
const cache = process.env.KEEPBY_CACHE ?? join(tmpdir(), 'tadpole-keep-by');
mkdirSync(cache, { recursive: true });

const suites = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(join(ROOT, 'corpora')).filter((d) => d.startsWith('suite')).sort().map((d) => `corpora/${d}`);

function evalSuite(dir, unit) {
  const file = join(cache, `${basename(dir)}.${unit}.json`);
  if (!existsSync(file)) {
    const specs = readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
    const r = spawnSync(process.execPath, ['bin/tadpole.js', 'eval', ...specs, '--methods', 'tadpole (default)', '--keep-by', unit, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`tadpole eval ${dir} --keep-by ${unit} failed (${r.status}): ${r.stderr.slice(-1000)}`);
    writeFileSync(file, r.stdout);
  }
  const out = JSON.parse(readFileSync(file, 'utf8'));
  return (out.specs ?? [out]).map((s) => ({ keep: s.keep, rule: s.keep_rule, kept: s.methods[0].kept_text, precision: s.methods[0].precision_chars }));
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

console.log('| suite | mixes | asked | `--keep-by` | kept share of the text: mean (range) | off the asked share: mean / worst | in-domain share of kept text: mean | min |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
const all = Object.fromEntries(UNITS.map((u) => [u, []]));
for (const dir of suites) {
  for (const unit of UNITS) {
    const rows = evalSuite(dir, unit);
    all[unit].push(...rows);
    const off = rows.map((r) => Math.abs(r.kept / r.keep - 1));
    const asked = rows.every((r) => r.rule === 'share') ? `in-domain share of ${unit}` : [...new Set(rows.map((r) => pct(r.keep)))].join(', ');
    const kept = rows.map((r) => r.kept);
    console.log(`| ${basename(dir)} | ${rows.length} | ${asked} | ${unit} | ${pct(mean(kept))} (${pct(Math.min(...kept))}–${pct(Math.max(...kept))}) | ${pct(mean(off))} / ${pct(Math.max(...off))} | ${pct(mean(rows.map((r) => r.precision)))} | ${pct(Math.min(...rows.map((r) => r.precision)))} |`);
  }
}
for (const unit of UNITS) {
  const rows = all[unit];
  const off = rows.map((r) => Math.abs(r.kept / r.keep - 1));
  console.log(`| **every mix** | ${rows.length} | | ${unit} | | ${pct(mean(off))} / ${pct(Math.max(...off))} | ${pct(mean(rows.map((r) => r.precision)))} | ${pct(Math.min(...rows.map((r) => r.precision)))} |`);
}
// Mix by mix: where the units' precision differs.
const s = all.sentences;
const b = all.bytes;
const better = b.filter((r, i) => r.precision > s[i].precision + 0.005).length;
const worse = b.filter((r, i) => r.precision < s[i].precision - 0.005).length;
console.log(`\nbytes vs sentences, in-domain share of kept text: higher on ${better} mixes, lower on ${worse}, within 0.5 points on ${b.length - better - worse}`);
