// Read speed of a Common Crawl WET file: tadpole's reader (gzip members inflated whole by
// zlib, src/io/warc-documents.ts) against warcio.js (Webrecorder's parser, pako inflate),
// against gunzip alone (the floor: every reader must inflate the bytes), and against the same
// documents as gzipped JSONL read by readDocuments (what WET costs over it). The WET file
// is built here, as Common Crawl writes it (one gzip member per record), from the built-in
// mix's text repeated to about MB megabytes (default 50): node scripts/bench/warc.js [MB]
import { readFileSync, writeFileSync, mkdtempSync, rmSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync, createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { WARCParser } from 'warcio';
import { readDocuments } from '../../dist/io/documents.js';

const targetMb = Number(process.argv[2] ?? 50);
const texts = gunzipSync(readFileSync(new URL('../../corpora/builtin/mix.jsonl.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).text);

function record(type, headers, block) {
  const body = Buffer.from(block, 'utf8');
  const head = [`WARC/1.0`, `WARC-Type: ${type}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${body.length}`].join('\r\n');
  return gzipSync(Buffer.concat([Buffer.from(head + '\r\n\r\n'), body, Buffer.from('\r\n\r\n')]));
}

const dir = mkdtempSync(join(tmpdir(), 'tadpole-bench-warc-'));
const path = join(dir, 'bench.warc.wet.gz');
const jsonlPath = join(dir, 'bench.jsonl.gz');
const lines = [];
const members = [record('warcinfo', { 'Content-Type': 'application/warc-fields' }, 'Software-Info: bench\r\n')];
let textBytes = 0;
for (let k = 0; textBytes < targetMb * 1e6; k++) {
  const text = texts[k % texts.length];
  textBytes += Buffer.byteLength(text);
  lines.push(JSON.stringify({ url: `https://example.org/${k}`, warc_record_id: `<urn:uuid:${k}>`, text }));
  members.push(record('conversion', { 'WARC-Target-URI': `https://example.org/${k}`, 'WARC-Date': '2024-01-01T00:00:00Z', 'WARC-Record-ID': `<urn:uuid:${k}>`, 'Content-Type': 'text/plain' }, text));
}
writeFileSync(path, Buffer.concat(members));
writeFileSync(jsonlPath, gzipSync(lines.join('\n') + '\n'));
const records = members.length - 1;
const gzBytes = members.reduce((a, m) => a + m.length, 0);

async function time(name, run) {
  const t = performance.now();
  const docs = await run();
  const s = (performance.now() - t) / 1000;
  console.log(`${name.padEnd(28)} ${docs} docs  ${s.toFixed(2)} s  ${(textBytes / 1e6 / s).toFixed(1)} MB/s of text  ${Math.round(docs / s)} records/s`);
}

console.log(`WET file: ${records} conversion records, ${(textBytes / 1e6).toFixed(1)} MB of text, ${(gzBytes / 1e6).toFixed(1)} MB gzipped (${process.version})`);
try {
  for (let round = 0; round < 3; round++) {
    await time('gunzip only (floor)', async () => {
      await pipeline(createReadStream(path), createGunzip(), new Writable({ write: (_c, _e, cb) => cb() }));
      return records;
    });
    await time('tadpole readDocuments', async () => {
      let docs = 0;
      for await (const b of readDocuments([path], { format: 'auto', textField: 'text', docPerLine: false, strict: false })) docs += b.length;
      return docs;
    });
    await time('same docs as .jsonl.gz', async () => {
      let docs = 0;
      for await (const b of readDocuments([jsonlPath], { format: 'auto', textField: 'text', docPerLine: false, strict: false })) docs += b.length;
      return docs;
    });
    await time('warcio WARCParser', async () => {
      let docs = 0;
      for await (const r of new WARCParser(createReadStream(path))) {
        if (r.warcType !== 'conversion') continue;
        const text = await r.contentText();
        if (text.length > 0) docs++;
      }
      return docs;
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
