/**
 * UTF-16 text (with its byte-order mark) decoded to UTF-8 as it streams. TextDecoder
 * keeps a code unit or surrogate pair cut by a chunk boundary for the next chunk and
 * drops the BOM. Offsets downstream are in the UTF-8 bytes, as they are in gunzipped bytes.
 */
export async function* utf16ToUtf8(chunks: AsyncIterable<Buffer>, encoding: 'utf-16le' | 'utf-16be'): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder(encoding);
  for await (const chunk of chunks) {
    const s = decoder.decode(chunk, { stream: true });
    if (s.length > 0) yield Buffer.from(s, 'utf8');
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield Buffer.from(tail, 'utf8');
}
