import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../src/core/shared.js';
import { splitSentences } from '../../src/text/sentences.js';
import { spawn } from 'node:child_process';
import { BIN, fitThenFilter, runMain, tempDir } from '../helpers/cli.js';
import { agNewsSports, keptShareBySource, sportMix } from '../helpers/corpora.js';

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('inspect: usage and bad input', () => {
  it('documents itself and refuses bad flags and empty input with the usage and input exit codes', async () => {
    const help = await runMain(['inspect', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.toString()).toMatch(/Usage: tadpole inspect/);
    expect(help.stdout.toString()).toMatch(/--write-groups DIR/);
    const { dir, cleanup } = tempDir();
    try {
      const text = join(dir, 't.txt');
      writeFileSync(text, 'The goalie stopped the puck.\n');
      expect((await runMain(['inspect', text, '--groups', '0'])).code).toBe(2);
      expect((await runMain(['inspect', text, '--sample', '0'])).code).toBe(2);
      const both = await runMain(['inspect', '-', '--task', '-']);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/stdin \(-\) can feed the text or --task, not both/);
      const empty = join(dir, 'empty.txt');
      writeFileSync(empty, '\n\n');
      const none = await runMain(['inspect', empty]);
      expect(none.code).toBe(3);
      expect(none.stderr).toMatch(/no sentences in .*empty\.txt/);
      const missing = await runMain(['inspect', join(dir, 'missing.txt')]);
      expect(missing.code).toBe(3);
    } finally {
      cleanup();
    }
  });

  it('a reader that closes the pipe early (| head): quiet exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'inspect', '--doc-per-line'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.destroy();
    child.stdin.end(Array.from({ length: 200 }, (_, i) => `Line ${i} says something about topic ${i % 7} and more.`).join('\n') + '\n');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('reads stdin and prints one JSON object per group', async () => {
    const lines = [
      ...Array.from({ length: 30 }, (_, i) => `The goalie stopped the puck in period ${i % 3} and the rangers scored on the power play.`),
      ...Array.from({ length: 30 }, (_, i) => `Whisk the flour with butter and sugar, then bake the dough for ${i % 5} minutes in the oven.`),
    ];
    const r = await runMain(['inspect', '--doc-per-line', '--groups', '2', '--json', '--examples', '1'], { input: lines.join('\n') + '\n' });
    expect(r.code, r.stderr).toBe(0);
    const groups = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as { group: number; share: number; sentences: number; words: string[]; examples: string[] });
    expect(groups.map((g) => g.group)).toEqual([1, 2]);
    expect(groups.reduce((a, g) => a + g.sentences, 0)).toBe(60);
    expect(groups.reduce((a, g) => a + g.share, 0)).toBeCloseTo(1, 6);
    const words = groups.map((g) => g.words.join(' '));
    expect(words.some((w) => /puck|goalie|rangers/.test(w) && !/flour|butter/.test(w))).toBe(true);
    expect(words.some((w) => /flour|butter|bake/.test(w) && !/puck|goalie/.test(w))).toBe(true);
    expect(groups.every((g) => g.examples.length === 1)).toBe(true);
    const { dir, cleanup } = tempDir();
    try {
      const out = join(dir, 'groups');
      const six = await runMain(['inspect', '--doc-per-line', '--groups', '6', '--write-groups', out], { input: lines.join('\n') + '\n' });
      expect(six.code, six.stderr).toBe(0);
      const n = six.stderr.match(/wrote (\d+) group files/)?.[1];
      expect(Number(n)).toBeGreaterThan(2);
      const two = await runMain(['inspect', '--doc-per-line', '--groups', '2', '--write-groups', out], { input: lines.join('\n') + '\n' });
      expect(two.code, two.stderr).toBe(0);
      expect(two.stderr).toMatch(/removed \d+ group files? of an earlier run/);
      expect(readdirSync(out).sort()).toEqual(['group-1.txt', 'group-2.txt']);
      const written = ['group-1.txt', 'group-2.txt'].flatMap((f) => readFileSync(join(out, f), 'utf8').trim().split('\n'));
      expect(written.sort()).toEqual([...lines].sort());
    } finally {
      cleanup();
    }
  });
});

/**
 * The loop `inspect` exists for, on real text (the topic-sport case of avoid.e2e): the default
 * keeps Usenet hockey and baseball posts beside BBC sport for a task of US sports news; the
 * kept text's groups set the posts apart; a user who avoids the groups that are plainly forum
 * posts gets more BBC sport and fewer posts from the next fit. The test plays that user by
 * the labels: it avoids the groups whose sentences are at least 75% forum sentences.
 */
describe.skipIf(!sharedDir())('inspect, then fit --avoid (real text)', () => {
  it('groups the kept text by source well enough that avoiding the forum groups keeps more BBC sport', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const mix = sportMix();
      const corpus = join(dir, 'corpus.jsonl');
      writeFileSync(corpus, mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const task = join(dir, 'task.txt');
      writeFileSync(task, (await agNewsSports(1500)).join('\n') + '\n');
      const forumSentences = new Set<string>();
      for (const d of mix.filter((d) => d.source === 'forum-sport')) {
        const spans = splitSentences(d.text);
        for (let j = 0; j < spans.length; j += 2) forumSentences.add(oneLine(d.text.slice(spans[j], spans[j + 1])));
      }

      const keptPlain = (await fitThenFilter(dir, task, corpus, [], 'plain')).kept;
      const groupsDir = join(dir, 'groups');
      const inspect = await runMain(['inspect', keptPlain, '--task', task, '--doc-per-line', '--write-groups', groupsDir]);
      expect(inspect.code, inspect.stderr).toBe(0);
      const reportText = inspect.stdout.toString();
      expect(reportText).toMatch(/^\d+ sentences in \d+ pieces \(all of it\), 12 groups; \d+ task sentences placed among them/);
      expect(reportText).toMatch(/group 1 {2}\d+\.\d% of the text {2}\(\d+ pieces, \d+ sentences\) {2}task \d+\.\d%\n {2}words: /);
      expect(inspect.stderr).toMatch(/wrote 12 group files to/);

      const avoid: string[] = [];
      for (let g = 1; g <= 12; g++) {
        const file = join(groupsDir, `group-${g}.txt`);
        expect(existsSync(file)).toBe(true);
        const lines = readFileSync(file, 'utf8').trim().split('\n');
        const forum = lines.filter((l) => forumSentences.has(l)).length / lines.length;
        if (forum >= 0.75) avoid.push(file);
      }
      expect(avoid.length).toBeGreaterThan(0);

      const plain = keptShareBySource(keptPlain);
      const avoided = keptShareBySource((await fitThenFilter(dir, task, corpus, ['--avoid', ...avoid], 'avoided')).kept);
      expect(avoided['forum-sport'] ?? 0).toBeLessThan((plain['forum-sport'] ?? 0) - 0.1);
      expect(avoided.sport ?? 0).toBeGreaterThan((plain.sport ?? 0) + 0.1);
    } finally {
      cleanup();
    }
  }, 120_000);
});
