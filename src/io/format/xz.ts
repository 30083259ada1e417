import { TadpoleError } from '../../core/errors.js';

/**
 * xz, decoded by xz-decompress (xz-embedded compiled to WebAssembly, 72 KB, no install
 * step). Measured on 20 MB of JSONL (xz -6): 13.4 MB/s, six times the default filter's
 * 2 MB/s. bzip2 is refused instead: the one streaming pure-JS decoder (unbzip2-stream)
 * read the same 20 MB at 1.6 MB/s, slower than the filter itself, so recompressing with
 * the bzip2 CLI first is the faster road (docs/design/decisions.md).
 */
export async function* xzDecode(chunks: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  // A CommonJS bundle: its exports arrive on `default` when imported from ESM.
  const mod = (await import('xz-decompress')) as typeof import('xz-decompress') & { default?: typeof import('xz-decompress') };
  const XzReadableStream = mod.XzReadableStream ?? mod.default!.XzReadableStream;
  const it = chunks[Symbol.asyncIterator]();
  const source = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const r = await it.next();
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      } catch (err) {
        controller.error(err);
      }
    },
  });
  const reader = new XzReadableStream(source).getReader();
  for (;;) {
    let r: Awaited<ReturnType<typeof reader.read>>;
    try {
      r = await reader.read();
    } catch (err) {
      if (err instanceof TadpoleError) throw err;
      throw new TadpoleError('TADPOLE_INPUT', `${name}: xz data is damaged or truncated (${(err as Error)?.message ?? String(err)})`, { file: name, cause: err });
    }
    if (r.done) return;
    yield Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
  }
}
