import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinMix, builtinTaskSentences } from '../helpers/builtin.js';
import { runCli, tempDir } from '../helpers/cli.js';

/**
 * The fields a JSONL (or CSV) record carries to filter's JSONL output are the input's bytes:
 * numbers no JavaScript number holds, escapes, key order and duplicate keys survive. A lone
 * surrogate escape in the text is counted. The real CLI on the built-in corpus, with a
 * task-knn model (fitted in about 2 s) and --keep 1, so every document comes out whole.
 */
const tmp = tempDir('tadpole-carried-');
const f = (name: string) => join(tmp.dir, name);
afterAll(() => tmp.cleanup());

const docs = builtinMix(3).map((d) => d.text);

beforeAll(async () => {
  writeFileSync(f('task.jsonl'), builtinTaskSentences(300).map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
  const fit = await runCli(['fit', '--task', f('task.jsonl'), '--detector', 'task-knn', '-o', f('model.json')]);
  expect(fit.code, fit.stderr).toBe(0);
});

async function filter(input: string, out: string, extra: string[] = []): Promise<{ lines: string[]; stderr: string }> {
  const r = await runCli(['filter', '-q', '-m', f('model.json'), '--keep', '1', input, '-o', f(out), ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return { lines: readFileSync(f(out), 'utf8').split('\n').filter(Boolean), stderr: r.stderr };
}

/**
 * One record per case: its members before and after the text as the input line spells them,
 * and as the output must spell them: each key and each value the input's bytes, written
 * `key:value` (only the whitespace between members, and around a member's colon, is not theirs).
 */
const cases: Array<{ what: string; before: string; after: string; out: [string, string] }> = [
  { what: 'an id above 2^53', before: '"id":90071992547409930', after: '', out: ['"id":90071992547409930', ''] },
  { what: '1e400, -0.0, 1.0', before: '"inf":1e400,"neg":-0.0', after: '"one":1.0', out: ['"inf":1e400,"neg":-0.0', '"one":1.0'] },
  { what: 'a 30-digit integer, a 20-digit decimal', before: '"big":123456789012345678901234567890', after: '"dec":0.12345678901234567890', out: ['"big":123456789012345678901234567890', '"dec":0.12345678901234567890'] },
  {
    what: 'escapes (\\u00e9, \\/, \\", \\\\) and strings with braces',
    before: String.raw`"s":"caf\u00e9 \/ \"q\" {x} [y] \\","\u006bey":"\ud83d\ude00"`,
    after: '',
    out: [String.raw`"s":"caf\u00e9 \/ \"q\" {x} [y] \\","\u006bey":"\ud83d\ude00"`, ''],
  },
  {
    what: 'nested objects and arrays, with their inner whitespace',
    before: '"nest":{"a":[1,{"b":"}"}], "c" : null}',
    after: '"arr":[1.10, -0.0,"]",[]],"e":{}',
    out: ['"nest":{"a":[1,{"b":"}"}], "c" : null}', '"arr":[1.10, -0.0,"]",[]],"e":{}'],
  },
  { what: 'duplicate keys, on both sides of the text', before: '"k":1,"k":2', after: '"k":3,"k":"three"', out: ['"k":1,"k":2', '"k":3,"k":"three"'] },
  { what: 'key order that is not sorted', before: '"z":true,"a":false,"m":null', after: '"b":"",  "A":0', out: ['"z":true,"a":false,"m":null', '"b":"","A":0'] },
  { what: 'whitespace between tokens', before: ' "w" :  -1.5E+3 ,\t"v":\t[ ]', after: ' "u" : "x" ', out: ['"w":-1.5E+3,"v":[ ]', '"u":"x"'] },
];

const lineOf = (c: (typeof cases)[number], text: string) => `{${c.before}${c.before ? ',' : ''}"text":${JSON.stringify(text)}${c.after ? ',' : ''}${c.after}}`;

describe('filter: carried JSONL fields are the input bytes', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('every case, %s line ends: the output record is the carried members, the kept text, then "tadpole"', async (name, eol) => {
    const input = f(`cases-${name}.jsonl`);
    writeFileSync(input, cases.map((c, i) => lineOf(c, docs[i]!)).join(eol) + eol);
    const { lines } = await filter(input, `cases-${name}.out.jsonl`);
    expect(lines).toHaveLength(cases.length);
    cases.forEach((c, i) => {
      const line = lines[i]!;
      const kept = (JSON.parse(line) as { text: string }).text;
      expect(kept.length).toBeGreaterThan(0);
      const [before, after] = c.out;
      const expected = `{${before}${before ? ',' : ''}"text":${JSON.stringify(kept)}${after ? ',' : ''}${after},"tadpole":{"doc":${i},`;
      expect(line.startsWith(expected), `${c.what}:\n${line.slice(0, 300)}`).toBe(true);
    });
  });

  it('the text key as written, the last text member as the text (an earlier one carried), an input "tadpole" member replaced by the output\'s', async () => {
    const input = f('dups.jsonl');
    writeFileSync(input, `{"text":"An earlier text member.","id":7,"t\\u0065xt":${JSON.stringify(docs[0])},"tadpole":{"doc":99},"after":1}\n`);
    const { lines } = await filter(input, 'dups.out.jsonl');
    expect(lines).toHaveLength(1);
    const kept = (JSON.parse(lines[0]!) as { text: string }).text;
    expect(docs[0]).toContain(kept);
    expect(lines[0]!.startsWith(`{"text":"An earlier text member.","id":7,"t\\u0065xt":${JSON.stringify(kept)},"after":1,"tadpole":{"doc":0,`)).toBe(true);
  });

  it('--text-field: the other fields, a field named "text" among them, are carried as written', async () => {
    const input = f('body.jsonl');
    writeFileSync(input, `{"text":1.0,"body":${JSON.stringify(docs[1])},"id":18446744073709551615}\n`);
    const { lines } = await filter(input, 'body.out.jsonl', ['--text-field', 'body']);
    const kept = (JSON.parse(lines[0]!) as { body: string }).body;
    expect(lines[0]!.startsWith(`{"text":1.0,"body":${JSON.stringify(kept)},"id":18446744073709551615,"tadpole":`)).toBe(true);
  });

  it('CSV: every column a string field with its text as written (quotes undone), duplicate names kept', async () => {
    const input = f('cols.csv');
    const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
    writeFileSync(input, `id,text,id,score\n90071992547409930,${cell(docs[2]!)},"1.0","say ""hi"", {x}"\n`);
    const { lines } = await filter(input, 'cols.out.jsonl');
    const kept = (JSON.parse(lines[0]!) as { text: string }).text;
    expect(lines[0]!.startsWith(`{"id":"90071992547409930","text":${JSON.stringify(kept)},"id":"1.0","score":"say \\"hi\\", {x}","tadpole":`)).toBe(true);
  });
});

describe('a lone surrogate escape in a JSONL text', () => {
  const text = 'The first sentence here is plain. A lone \\ud800 surrogate sits in this second sentence.';
  const write = () => {
    const input = f('surrogate.jsonl');
    writeFileSync(input, `{"id":1,"text":"${text}"}\n{"id":2,"text":${JSON.stringify(docs[0])}}\n`);
    return input;
  };

  it('text output: written as U+FFFD, counted in loneSurrogateDocs (not invalidUtf8Docs), one warning line', async () => {
    const r = await runCli(['filter', '-m', f('model.json'), '--keep', '1', write(), '-o', f('surrogate.out.txt'), '--stats', f('surrogate.stats.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(f('surrogate.out.txt'), 'utf8')).toContain('A lone \uFFFD surrogate');
    const reader = (JSON.parse(readFileSync(f('surrogate.stats.json'), 'utf8')) as { reader: Record<string, number> }).reader;
    expect(reader.loneSurrogateDocs).toBe(1);
    expect(reader.invalidUtf8Docs).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('lone surrogate'));
    expect(warnings).toEqual(['tadpole: warning: a lone surrogate escape (\\ud800-\\udfff) in 1 document, written as U+FFFD in text output (counts in --stats)']);
  });

  it('JSONL output: the escape is kept (JSON can write it), and still counted', async () => {
    const r = await runCli(['filter', '-m', f('model.json'), '--keep', '1', write(), '-o', f('surrogate.out.jsonl'), '--stats', f('surrogate2.stats.json')]);
    expect(r.code, r.stderr).toBe(0);
    const first = readFileSync(f('surrogate.out.jsonl'), 'utf8').split('\n')[0]!;
    expect(first).toContain('A lone \\ud800 surrogate');
    expect((JSON.parse(first) as { text: string }).text).toContain('A lone \ud800 surrogate');
    expect((JSON.parse(readFileSync(f('surrogate2.stats.json'), 'utf8')) as { reader: Record<string, number> }).reader.loneSurrogateDocs).toBe(1);
  });
});
