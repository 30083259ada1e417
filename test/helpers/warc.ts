import { gzipSync } from 'node:zlib';
import { builtinMix } from './builtin.js';

/**
 * WARC and WET files as Common Crawl writes them (ISO 28500 WARC/1.0): CRLF header lines,
 * Content-Length in bytes of the block, CRLF CRLF after it, and (gzipped) one gzip member
 * per record. There is no Common Crawl data in the checkout: the text is the built-in mix's.
 */
export interface WarcRecordSpec {
  type: string;
  headers?: Record<string, string>;
  block: string | Buffer;
}

export function warcRecord(r: WarcRecordSpec, version = '1.0'): Buffer {
  const block = typeof r.block === 'string' ? Buffer.from(r.block, 'utf8') : r.block;
  const head = [`WARC/${version}`, `WARC-Type: ${r.type}`, ...Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${block.length}`].join('\r\n');
  return Buffer.concat([Buffer.from(head + '\r\n\r\n', 'latin1'), block, Buffer.from('\r\n\r\n')]);
}

/** Records as a WARC file: one gzip member per record, or plain. */
export function warcFile(records: WarcRecordSpec[], opts: { gzip?: boolean; version?: string } = {}): Buffer {
  return Buffer.concat(records.map((r) => (opts.gzip === false ? warcRecord(r, opts.version) : gzipSync(warcRecord(r, opts.version)))));
}

export function recordId(k: number): string {
  return `<urn:uuid:00000000-0000-4000-8000-${String(k).padStart(12, '0')}>`;
}

export function pageUrl(k: number): string {
  return `https://example.org/page/${k}?q="a"&b=\u00e9`;
}

const WARCINFO: WarcRecordSpec = {
  type: 'warcinfo',
  headers: { 'WARC-Date': '2024-01-01T00:00:00Z', 'WARC-Filename': 'CC-MAIN-test.warc.wet.gz', 'WARC-Record-ID': '<urn:uuid:ffffffff-0000-4000-8000-000000000000>', 'Content-Type': 'application/warc-fields' },
  block: 'Software-Info: tadpole-test\r\nExtracted-Date: Mon, 01 Jan 2024 00:00:00 GMT\r\n',
};

/** A WET file of the built-in mix's first `perSource` documents per source: warcinfo, then a conversion record per document. */
export function wetOf(texts: readonly string[]): WarcRecordSpec[] {
  return [
    WARCINFO,
    ...texts.map((text, k) => ({
      type: 'conversion',
      headers: { 'WARC-Target-URI': pageUrl(k), 'WARC-Date': '2024-01-01T00:00:00Z', 'WARC-Record-ID': recordId(k), 'WARC-Refers-To': `<urn:uuid:${k}>`, 'Content-Type': 'text/plain' },
      block: text,
    })),
  ];
}

export function mixTexts(perSource: number): string[] {
  return builtinMix(perSource).map((d) => d.text);
}

/** The JSONL a WET file's documents are: the same fields, in the order a WET document carries them. */
export function jsonlOf(texts: readonly string[]): string {
  return texts.map((text, k) => JSON.stringify({ url: pageUrl(k), warc_record_id: recordId(k), text })).join('\n') + '\n';
}

/** An HTTP response as a WARC `response` record's block. */
export function httpBlock(contentType: string, body: string | Buffer, extra = ''): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: ${contentType}\r\n${extra}Content-Length: ${b.length}\r\n\r\n`, 'latin1'), b]);
}
