import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { runCli, runMain, tempDir } from '../helpers/cli.js';

const tmp = tempDir();
const f = (name: string) => join(tmp.dir, name);
let mixText = '';
// 200 documents: thousands of sentences, enough for exact cuts and many segments, small enough to run every mode on.
const mix = builtinMix(40);

beforeAll(async () => {
  writeFileSync(f('task.jsonl'), builtinTaskSentences(800).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
  writeFileSync(f('mix.jsonl'), mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
  // Plain text: documents separated by blank lines (inner blank lines folded so documents stay whole).
  mixText = mix.map((d) => d.text.replace(/\n\s*\n/g, '\n').trim()).join('\n\n') + '\n';
  writeFileSync(f('mix.txt'), mixText);
  // Half the mix's sentences as the general sample: the fit takes half the time, and still separates bio.
  const fit = await runMain(['fit', '--task', f('task.jsonl'), '--general', f('mix.jsonl'), '--general-sample', '1500', '-o', f('model.json')]);
  expect(fit.stderr).toContain('fitted contrast');
  expect(fit.code).toBe(0);
});
afterAll(() => tmp.cleanup());

interface Stats {
  sentences: { total: number; kept: number };
  segments: { total: number; kept: number };
  bytes: { total: number; kept: number };
  threshold: number;
  seconds: Record<string, number>;
}

/** The bytes of the mix's largest segment: an exact cut by bytes lands within one segment of its share. */
async function largestSegmentBytes(model: string): Promise<number> {
  const seg = await runMain(['score', '-m', model, '--segments', f('mix.txt')]);
  expect(seg.code).toBe(0);
  const texts = seg.stdout.toString().trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text);
  // A segment's bytes count the line breaks between its sentences too.
  return Math.max(...texts.map((t) => Buffer.byteLength(t) + 15));
}

describe('tadpole filter (end to end, real text)', () => {
  it('keeps 20% of the bytes (the default unit) to within one segment; blocks are verbatim input, in input order; same bytes twice', async () => {
    const a = await runMain(['filter', '-m', f('model.json'), '--keep', '0.2', f('mix.txt'), '-o', f('kept.txt'), '--stats', f('stats.json')]);
    expect(a.code).toBe(0);
    const stats = JSON.parse(readFileSync(f('stats.json'), 'utf8')) as Stats & { keepBy: string };
    expect(stats.keepBy).toBe('bytes');
    expect(stats.sentences.total).toBeGreaterThan(2000);
    expect(Math.abs(stats.bytes.kept - 0.2 * stats.bytes.total)).toBeLessThanOrEqual(await largestSegmentBytes(f('model.json')));
    // The summary gives the share in the unit --keep counted.
    expect(a.stderr).toMatch(/kept \d+\/\d+ segments, (19\.\d\d|20\.\d\d)% of the bytes \(\d+\/\d+\), \d+\/\d+ sentences/);
    for (const k of ['pass1', 'cut', 'pass2', 'total']) expect(stats.seconds[k]).toBeGreaterThanOrEqual(0);
    const out = readFileSync(f('kept.txt'), 'utf8');
    const blocks = out.replace(/\n$/, '').split('\n\n');
    expect(blocks.length).toBeGreaterThan(5);
    let at = 0;
    for (const b of blocks) {
      const pos = mixText.indexOf(b, at);
      expect(pos, `block not found in order: ${b.slice(0, 60)}`).toBeGreaterThanOrEqual(0);
      at = pos + b.length;
    }
    expect(Buffer.byteLength(out)).toBeGreaterThanOrEqual(stats.bytes.kept);
    const b = await runMain(['filter', '-m', f('model.json'), f('mix.txt'), '-o', f('kept2.txt')]);
    expect(b.code).toBe(0);
    expect(readFileSync(f('kept2.txt')).equals(readFileSync(f('kept.txt')))).toBe(true);
  });

  it('--keep-by sentences keeps 20% of the sentences to within one segment, and its summary says so', async () => {
    const r = await runMain(['filter', '-m', f('model.json'), '--keep-by', 'sentences', f('mix.txt'), '-o', f('kept-sentences.txt'), '--stats', f('stats-sentences.json')]);
    expect(r.code).toBe(0);
    const stats = JSON.parse(readFileSync(f('stats-sentences.json'), 'utf8')) as Stats & { keepBy: string };
    expect(stats.keepBy).toBe('sentences');
    expect(Math.abs(stats.sentences.kept - 0.2 * stats.sentences.total)).toBeLessThanOrEqual(15);
    expect(r.stderr).toMatch(/kept \d+\/\d+ segments, (19\.\d\d|20\.\d\d)% of the sentences \(\d+\/\d+\), \d+\/\d+ bytes/);
  });

  it('stdin to stdout gives the same bytes as files', async () => {
    const r = await runCli(['filter', '-m', f('model.json'), '-q'], { input: mixText });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // The stdin side is the process's own (its spool); the file side is the command's answer.
    const file = await runMain(['filter', '-m', f('model.json'), f('mix.txt'), '-q']);
    expect(r.stdout.equals(file.stdout)).toBe(true);
    expect(r.stdout.length).toBeGreaterThan(1000);
  });

  it('JSONL: other fields come through; the task domain dominates what is kept', async () => {
    const r = await runMain(['filter', '-m', f('model.json'), f('mix.jsonl'), '-q']);
    expect(r.code).toBe(0);
    const recs = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as { text: string; source: string; tadpole: { doc: number; segments: number[] } });
    const bySource: Record<string, number> = {};
    for (const rec of recs) {
      expect(mix[rec.tadpole.doc]!.text).toContain(rec.text);
      expect(rec.source).toBe(mix[rec.tadpole.doc]!.source);
      bySource[rec.source] = (bySource[rec.source] ?? 0) + 1;
    }
    expect(bySource.bio ?? 0).toBeGreaterThan(recs.length / 2);
  });

  it('JSONL with junk lines between the documents: the same bytes as without them (pass 2 skims, drops and decodes by the doc index)', async () => {
    // Pass 2 decodes only documents with a kept segment, skims the others and drops lines
    // pass 1 skipped, by their byte offsets: junk of every kind, a BOM and a CRLF line must
    // not shift which record gets which segments.
    const junk = ['{not json', '', '{"other": "no text field"}', '   ', '{"text": 5}', '[1]'];
    const lines = mix.map((d) => JSON.stringify(d));
    const dirty = lines.flatMap((l, i) => (i % 3 === 0 ? [junk[i % junk.length]!, l] : i % 7 === 0 ? [l + '\r'] : [l]));
    writeFileSync(f('dirty.jsonl'), '\uFEFF' + dirty.join('\n') + '\n');
    const clean = await runMain(['filter', '-m', f('model.json'), f('mix.jsonl'), '-q', '--stats', f('clean-stats.json')]);
    const r = await runMain(['filter', '-m', f('model.json'), f('dirty.jsonl'), '-q', '--stats', f('dirty-stats.json')]);
    expect(clean.code).toBe(0);
    expect(r.code).toBe(0);
    const st = JSON.parse(readFileSync(f('dirty-stats.json'), 'utf8')) as Stats & { documents: { total: number; withKept: number }; reader: Record<string, number> };
    expect(st.reader.badJsonLines + st.reader.missingFieldLines).toBe(lines.filter((_, i) => i % 3 === 0 && i % junk.length !== 1 && i % junk.length !== 3).length);
    // Some documents were skimmed (nothing kept), some decoded.
    expect(st.documents.withKept).toBeGreaterThan(0);
    expect(st.documents.withKept).toBeLessThan(st.documents.total);
    expect(r.stdout.length).toBeGreaterThan(1000);
    expect(r.stdout.equals(clean.stdout)).toBe(true);
    // Skipped, not swallowed: one warning on stderr even under -q, with the counts of --stats.
    expect(clean.stderr).toBe('');
    const bad = st.reader.badJsonLines;
    const missing = st.reader.missingFieldLines;
    const skipped = [`${bad} JSONL lines that are not JSON objects`, ...(missing ? [`${missing} records without a string "text" field`] : [])].join(', ');
    expect(bad).toBeGreaterThan(1);
    expect(r.stderr).toBe(`tadpole: warning: skipped ${skipped} (counts in --stats; --strict stops at the first bad record and names its line)\n`);
    for (const cmd of [['score', '-m', f('model.json')], ['split']]) {
      const other = await runMain([...cmd, f('dirty.jsonl')]);
      expect(other.code).toBe(0);
      expect(other.stderr).toContain(`tadpole: warning: skipped ${bad} JSONL lines that are not JSON objects`);
    }
  });

  it('--threshold (one streaming pass) keeps exactly the segments scoring <= T, and reproduces the cut when no tie sits at T', async () => {
    const stats = JSON.parse(readFileSync(f('stats.json'), 'utf8')) as Stats & { tieId: number };
    const T = stats.threshold;
    const r = await runMain(['filter', '-m', f('model.json'), '--threshold', String(T), f('mix.txt'), '-q', '--stats', f('thr-stats.json')]);
    expect(r.code).toBe(0);
    const thr = JSON.parse(readFileSync(f('thr-stats.json'), 'utf8')) as Stats;
    const seg = await runMain(['score', '-m', f('model.json'), '--segments', '--no-text', f('mix.txt')]);
    const scores = seg.stdout.toString().trim().split('\n').map((l) => (JSON.parse(l) as { score: number; segment: number }));
    expect(thr.segments.kept).toBe(scores.filter((x) => x.score <= T).length);
    const tiedAfterCut = scores.filter((x) => x.score === T && x.segment > stats.tieId).length;
    if (tiedAfterCut === 0) expect(r.stdout.equals(readFileSync(f('kept.txt')))).toBe(true);
    else expect(thr.segments.kept).toBe(stats.segments.kept + tiedAfterCut);
  });

  it('--weights writes every segment with a weight in (0, 1), lower score = higher weight', async () => {
    const r = await runMain(['filter', '-m', f('model.json'), '--weights', '--C', '2', f('mix.txt'), '-q']);
    expect(r.code).toBe(0);
    const recs = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as { tadpole: { score: number; weight: number } });
    const stats = JSON.parse(readFileSync(f('stats.json'), 'utf8')) as Stats;
    expect(recs.length).toBe(stats.segments.total);
    for (const rec of recs) expect(rec.tadpole.weight).toBeGreaterThan(0);
    const sorted = [...recs].sort((x, y) => x.tadpole.score - y.tadpole.score);
    expect(sorted[0]!.tadpole.weight).toBeGreaterThan(sorted[sorted.length - 1]!.tadpole.weight);
  });

  it('score prints one record per sentence; --segments one per segment', async () => {
    const stats = JSON.parse(readFileSync(f('stats.json'), 'utf8')) as Stats;
    const s = await runMain(['score', '-m', f('model.json'), f('mix.txt'), '--no-text']);
    expect(s.stdout.toString().trim().split('\n').length).toBe(stats.sentences.total);
    const g = await runMain(['score', '-m', f('model.json'), '--segments', f('mix.txt')]);
    const segs = g.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as { text: string });
    expect(segs.length).toBe(stats.segments.total);
    expect(mixText).toContain(segs[3]!.text);
    // With text, each sentence's record holds it: `split`'s sentences, in order (the default
    // scores sentences in place, so the text is taken from the document, not from the scorer).
    const t = await runMain(['score', '-m', f('model.json'), f('mix.txt')]);
    const texts = t.stdout.toString().trim().split('\n').map((l) => (JSON.parse(l) as { text?: string }).text);
    const split = await runMain(['split', '--out-format', 'jsonl', f('mix.txt')]);
    const sentences = split.stdout.toString().trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text);
    expect(texts.length).toBe(stats.sentences.total);
    expect(texts).toEqual(sentences);
  });

  it('a closed stdout (| head) ends the run quietly with exit 0', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const code = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'filter', '-m', f('model.json'), '--keep', '1', f('mix.txt'), '-q']);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (c) => resolve({ code: c, err }));
    });
    expect(code.err).toBe('');
    expect(code.code).toBe(0);
  });

  it('empty input: empty output, exit 0', async () => {
    writeFileSync(f('empty.txt'), '');
    const r = await runMain(['filter', '-m', f('model.json'), f('empty.txt'), '-o', f('empty.out')]);
    expect(r.code).toBe(0);
    expect(readFileSync(f('empty.out'), 'utf8')).toBe('');
  });

  it('errors: missing input (3), bad model file (4), embedder mismatch refused (4), usage (2); no output file left', async () => {
    const missing = await runMain(['filter', '-m', f('model.json'), f('nope.txt'), '-o', f('never.txt')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('nope.txt');
    expect(() => readFileSync(f('never.txt'))).toThrow();
    writeFileSync(f('bad.json'), '{"format":"something else"}');
    expect((await runMain(['filter', '-m', f('bad.json'), f('mix.txt')])).code).toBe(4);
    const fitHash = await runMain(['fit', '--task', f('task.jsonl'), '--method', 'tadpole', '--embedder', 'hash', '--dims', '64', '--representation', 'embedder', '-o', f('hash64.json')]);
    expect(fitHash.code).toBe(0);
    const mismatch = await runMain(['filter', '-m', f('hash64.json'), '--dims', '128', f('mix.txt')]);
    expect(mismatch.code).toBe(4);
    expect(mismatch.stderr).toMatch(/differs from the one the model was fitted with/);
    const usage = await runMain(['filter', '-m', f('model.json'), '--keep', '2', f('mix.txt')]);
    expect(usage.code).toBe(2);
    expect((await runMain(['filter', '--bogus'])).code).toBe(2);
  });

  it('knn-tapt in the paper\'s form selects against the whole corpus: exact share, stdin equals files, no --threshold or shards', async () => {
    // 200 task sentences: the paper's form searches the corpus for each of them, and what is
    // checked here is the cut and the input paths, not how well the neighbours are chosen.
    writeFileSync(f('task-200.jsonl'), readFileSync(f('task.jsonl'), 'utf8').split('\n').slice(0, 200).join('\n') + '\n');
    const fit = await runMain(['fit', '--method', 'knn-tapt', '--option', 'form=paper', '--k', '2', '--task', f('task-200.jsonl'), '--general', f('mix.jsonl'), '--general-sample', '1000', '-o', f('knn-paper.json')]);
    expect(fit.code).toBe(0);
    const a = await runMain(['filter', '-m', f('knn-paper.json'), f('mix.txt'), '-q', '--stats', f('knn-stats.json')]);
    expect(a.code).toBe(0);
    const stats = JSON.parse(readFileSync(f('knn-stats.json'), 'utf8')) as Stats;
    expect(Math.abs(stats.bytes.kept - 0.2 * stats.bytes.total)).toBeLessThanOrEqual(await largestSegmentBytes(f('model.json')));
    const b = await runMain(['filter', '-m', f('knn-paper.json'), '-q'], { input: mixText });
    expect(b.stdout.equals(a.stdout)).toBe(true);
    expect((await runMain(['filter', '-m', f('knn-paper.json'), '--threshold', '0', f('mix.txt')])).code).toBe(2);
    expect((await runMain(['score', '-m', f('knn-paper.json'), '--run-dir', f('knn-run'), '--shard', '0/2', f('mix.txt')])).code).toBe(2);
  });

  it('every command has --help', async () => {
    for (const cmd of ['fit', 'filter', 'score', 'split']) {
      const r = await runMain([cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout.toString()).toContain(`tadpole ${cmd}`);
    }
  });
});
