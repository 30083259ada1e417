// Eval specs that travel: from the mix and task files `tadpole eval --work-dir` left for a
// spec, keep the mix's first documents up to --max-bytes (the mix is shuffled, so the labels
// keep their shares, as eval's --max-sentences reads them), write them as one JSONL file per
// label, and a spec that takes each file whole, with the original's task, keep, segment, seed
// and general sample, and the methods that compare a real encoder with hashed features.
// Paths in the written spec are relative to OUT_ROOT, which becomes $TADPOLE_SHARED there.
//
//   node scripts/gpu/make-specs.mjs --spec corpora/figure5-bio.json --work-dir DIR
//     --out-root ROOT [--mix-name NAME] [--max-bytes 6000000]
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const specFile = arg('spec');
const workDir = arg('work-dir');
const root = arg('out-root');
const name = basename(specFile, '.json');
const mixName = arg('mix-name', name);
const maxBytes = Number(arg('max-bytes', 6_000_000));
const spec = JSON.parse(readFileSync(specFile, 'utf8'));

const mixDir = join(root, 'corpora', 'mixes', mixName);
mkdirSync(mixDir, { recursive: true });
const labels = [...new Set(spec.sources.map((s) => s.label))];
const files = Object.fromEntries(labels.map((l) => [l, join('corpora', 'mixes', mixName, `${l}.jsonl`)]));
// Specs that share a mix (figure5-bio and figure5-cs) write it once.
if (!existsSync(join(root, files[labels[0]]))) {
  const out = Object.fromEntries(labels.map((l) => [l, []]));
  let bytes = 0;
  for await (const line of createInterface({ input: createReadStream(join(workDir, 'mix.jsonl')) })) {
    if (bytes >= maxBytes) break;
    const rec = JSON.parse(line);
    out[rec.source].push(JSON.stringify({ text: rec.text }));
    bytes += Buffer.byteLength(rec.text);
  }
  for (const l of labels) writeFileSync(join(root, files[l]), out[l].join('\n') + '\n');
}
mkdirSync(join(root, 'corpora', 'tasks'), { recursive: true });
copyFileSync(join(workDir, 'task.jsonl'), join(root, 'corpora', 'tasks', `${name}.jsonl`));

const encoder = { kind: 'onnx', modelDir: 'models/encoder' };
const derived = {
  name,
  description: `${spec.name}: the first ${(maxBytes / 1e6).toFixed(0)} MB of its mix as tadpole eval --work-dir built it, one file per label taken whole (scripts/gpu/make-specs.mjs)`,
  sources: labels.map((l) => ({ label: l, files: [files[l]], format: 'jsonl-text' })),
  inDomain: spec.inDomain,
  task: { files: [join('corpora', 'tasks', `${name}.jsonl`)], format: 'jsonl-text' },
  methods: [
    { name: 'tadpole', title: 'tadpole+iforest[encoder]', embedder: encoder, options: { detector: 'iforest' } },
    { name: 'contrast', title: 'tadpole (default)' },
    { name: 'tadpole', title: 'tadpole+iforest[hash]', embedder: { kind: 'hash' }, options: { detector: 'iforest' } },
    { name: 'tadpole', title: 'tadpole+iforest[lsa]', options: { detector: 'iforest' } },
    { name: 'contrast', title: 'tadpole (default)[encoder]', embedder: encoder },
    { name: 'random' },
  ],
  keep: spec.keep,
  segment: spec.segment,
  seed: spec.seed,
  ...(spec.generalSample !== undefined ? { generalSample: spec.generalSample } : {}),
};
mkdirSync(join(root, 'specs'), { recursive: true });
writeFileSync(join(root, 'specs', `${name}.json`), JSON.stringify(derived, null, 2) + '\n');
console.log(`${name}: ${labels.join(', ')} -> ${join(root, 'specs', `${name}.json`)}`);
