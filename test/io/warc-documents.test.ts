import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { TadpoleError } from '../../src/core/errors.js';
import { DEFAULT_READER, ReadCounters, readKinds, type Doc, type ReadOptions } from '../../src/io/documents.js';
import { resolveInput } from '../../src/io/input-kind.js';
import { warcCut } from '../../src/io/warc-documents.js';
import { planShard } from '../../src/passes/plan.js';
import { testDir } from '../helpers/temp.js';
import { httpBlock, mixTexts, pageUrl, recordId, warcFile, warcRecord, wetOf } from '../helpers/warc.js';

let dir: string;
let texts: string[];

beforeAll(() => {
  dir = testDir('tadpole-warc-');
  texts = mixTexts(8);
});

async function docsOf(path: string, ro: ReadOptions = {}, format: 'auto' | 'text' = 'auto'): Promise<Doc[]> {
  const out: Doc[] = [];
  for await (const batch of readKinds([resolveInput(path, format)], { ...DEFAULT_READER, format }, ro)) out.push(...batch);
  return out;
}

function write(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('WET and WARC input', () => {
  it('a gzipped WET file: one document per conversion record, its URI and record id carried, offsets at gzip members', async () => {
    const path = write('CC-MAIN-x.warc.wet.gz', warcFile(wetOf(texts)));
    expect(resolveInput(path, 'auto').format).toBe('warc');
    const counters = new ReadCounters();
    const docs = await docsOf(path, { counters });
    expect(docs.map((d) => d.text)).toEqual(texts);
    expect(docs[3]!.fields).toEqual({ url: pageUrl(3), warc_record_id: recordId(3), text: texts[3] });
    expect(docs[3]!.carried).toEqual({ before: `"url":${JSON.stringify(pageUrl(3))},"warc_record_id":${JSON.stringify(recordId(3))}`, textKey: '"text"', after: '' });
    expect(counters.docs).toBe(texts.length);
    expect(counters.lines).toBe(texts.length + 1); // the warcinfo record is read, not a document
    // Each document spans its own member; the next starts where it ends.
    const member0 = gzipSync(warcRecord(wetOf(texts)[0]!)).length;
    expect(docs[0]!.byteStart).toBe(member0);
    for (let k = 1; k < docs.length; k++) expect(docs[k]!.byteStart).toBe(docs[k - 1]!.byteEnd);
  });

  it('is found by its bytes whatever its name (.txt, .jsonl, none), gzipped or plain, WARC/1.0 or 1.1; --format text reads the raw lines', async () => {
    const gz = warcFile(wetOf(texts.slice(0, 3)));
    const plain = warcFile(wetOf(texts.slice(0, 3)), { gzip: false, version: '1.1' });
    for (const [name, bytes] of [['a.txt', gz], ['b.jsonl', gz], ['c', plain], ['d.jsonl.gz', plain]] as const) {
      const path = write(name, bytes);
      expect(resolveInput(path, 'auto').format, name).toBe('warc');
      expect((await docsOf(path)).map((d) => d.text), name).toEqual(texts.slice(0, 3));
    }
    expect(resolveInput(write('e.txt', plain), 'text').format).toBe('text');
    expect((await docsOf(join(dir, 'e.txt'), {}, 'text'))[0]!.text).toMatch(/^WARC\/1\.1\r\nWARC-Type: warcinfo/);
    // On stdin (a stream under --format auto) a WARC is refused, not read as text.
    const stdin = await readKinds([resolveInput('-', 'auto')], DEFAULT_READER, { stdin: Readable.from([gz]) }).next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((stdin as Error).message).toBe('<stdin>: a WARC (WET) stream, which tadpole reads only from a file (its records are cut at gzip members): save it to a file and give that');
    // Text that merely mentions a WARC version later on is text.
    expect(resolveInput(write('f.txt', Buffer.from('About WARC/1.0 files\n\nWARC/1.0\r\n')), 'auto').format).toBe('text');
  });

  it('a WARC: text/plain responses are documents (chunked and Latin-1 too); HTML and other responses are skipped and counted; request, metadata and warcinfo are not documents', async () => {
    const latin = Buffer.from('Caf\u00e9 cr\u00e8me, said the sign.', 'latin1');
    const chunked = Buffer.from('Hello chunked world, ', 'utf8');
    const chunkedBody = Buffer.concat([Buffer.from(`${chunked.length.toString(16)}\r\n`), chunked, Buffer.from('\r\n6\r\nagain.\r\n0\r\n\r\n')]);
    const records = [
      wetOf([])[0]!,
      { type: 'request', headers: { 'WARC-Target-URI': 'https://a.example/', 'Content-Type': 'application/http; msgtype=request' }, block: 'GET / HTTP/1.1\r\nHost: a.example\r\n\r\n' },
      { type: 'response', headers: { 'WARC-Target-URI': 'https://a.example/robots.txt', 'WARC-Record-ID': recordId(1), 'Content-Type': 'application/http; msgtype=response' }, block: httpBlock('text/plain; charset=utf-8', texts[0]!) },
      { type: 'metadata', headers: { 'WARC-Target-URI': 'https://a.example/', 'Content-Type': 'application/warc-fields' }, block: 'fetchTimeMs: 12\r\n' },
      { type: 'response', headers: { 'WARC-Target-URI': 'https://a.example/page.html', 'WARC-Record-ID': recordId(2) }, block: httpBlock('text/html; charset=utf-8', `<html><body><p>${texts[1]!}</p></body></html>`) },
      { type: 'response', headers: { 'WARC-Target-URI': 'https://a.example/logo.png', 'WARC-Record-ID': recordId(3) }, block: httpBlock('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])) },
      { type: 'response', headers: { 'WARC-Target-URI': '<https://a.example/latin.txt>', 'WARC-Record-ID': recordId(4) }, block: httpBlock('text/plain; charset=ISO-8859-1', latin) },
      { type: 'response', headers: { 'WARC-Target-URI': 'https://a.example/chunked.txt', 'WARC-Record-ID': recordId(5) }, block: httpBlock('text/plain', chunkedBody, 'Transfer-Encoding: chunked\r\n') },
    ];
    for (const gzip of [true, false]) {
      const path = write(`crawl-${gzip}.warc${gzip ? '.gz' : ''}`, warcFile(records, { gzip }));
      const counters = new ReadCounters();
      const docs = await docsOf(path, { counters });
      expect(docs.map((d) => d.text)).toEqual([texts[0], 'Caf\u00e9 cr\u00e8me, said the sign.', 'Hello chunked world, again.']);
      expect(docs.map((d) => d.fields!.url)).toEqual(['https://a.example/robots.txt', 'https://a.example/latin.txt', 'https://a.example/chunked.txt']);
      expect(counters.warcNonTextRecords).toBe(2);
      expect(counters.toJSON().warcNonTextRecords).toBe(2);
    }
    // A corpus without WARC inputs has no such counter at all.
    expect(new ReadCounters().toJSON()).not.toHaveProperty('warcNonTextRecords');
  });

  it('shards cut a gzipped WET at member starts: every record read once, in order, whatever the count; a plain WARC goes whole', async () => {
    const path = write('many.warc.wet.gz', warcFile(wetOf(mixTexts(40))));
    const kind = resolveInput(path, 'auto');
    const all = await docsOf(path);
    const starts = new Set(all.map((d) => d.byteStart));
    for (const pos of [1, 500, 5000, Math.floor(kind.size / 2)]) {
      const cut = warcCut(kind, pos, DEFAULT_READER.maxDocBytes ?? 1 << 24);
      expect(cut).toBeGreaterThanOrEqual(pos);
      expect(starts.has(cut) || cut === kind.size).toBe(true);
    }
    for (const n of [2, 3, 7]) {
      const got: Doc[] = [];
      for (let i = 0; i < n; i++) {
        const plan = planShard([kind], [{ size: kind.size } as never], DEFAULT_READER, i, n);
        // Every shard of a file this size gets a part of it, as a byte range.
        expect(plan.ranges.get(0)).toBeDefined();
        got.push(...(await docsOf(path, { only: plan.only, ranges: plan.ranges })));
      }
      expect(got.map((d) => d.byteStart)).toEqual(all.map((d) => d.byteStart));
      expect(got.map((d) => d.text)).toEqual(all.map((d) => d.text));
    }
    const plain = write('many.warc', warcFile(wetOf(mixTexts(5)), { gzip: false }));
    const plainKind = resolveInput(plain, 'auto');
    const halves = [0, 1].map((i) => planShard([plainKind], [{ size: plainKind.size } as never], DEFAULT_READER, i, 2));
    expect(halves.map((p) => [p.only.size, p.ranges.size])).toEqual([[0, 0], [1, 0]]);
  });

  it('a truncated record, a damaged member, or a WARC gzipped whole is refused with one line (exit 3)', async () => {
    const full = warcFile(wetOf(texts.slice(0, 4)));
    const plain = warcFile(wetOf(texts.slice(0, 4)), { gzip: false });
    const damaged = Buffer.from(full);
    damaged[full.length - 40] ^= 0xff;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['cut.wet.gz', full.subarray(0, full.length - 100), /gzip data is truncated \(a member from byte \d+ has no end\)/],
      ['cut.warc', plain.subarray(0, plain.length - 100), /truncated record \(its block holds \d+ of \d+ bytes\)/],
      ['damaged.wet.gz', damaged, /gzip data is damaged/],
      ['whole.warc.gz', gzipSync(plain), /more than one WARC record in the gzip member at byte 0: .*gzip -dc FILE > FILE\.warc/],
      ['nolength.warc', Buffer.from('WARC/1.0\r\nWARC-Type: conversion\r\n\r\nhello\r\n\r\n'), /record has no valid Content-Length/],
    ];
    for (const [name, bytes, message] of cases) {
      const path = write(name, bytes);
      const err = await docsOf(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(TadpoleError);
      expect((err as TadpoleError).code, name).toBe('TADPOLE_INPUT');
      expect((err as Error).message, name).toMatch(message);
      expect((err as Error).message.startsWith(`${path}: `), name).toBe(true);
      expect((err as Error).message, name).not.toContain('\n');
    }
  });
});
