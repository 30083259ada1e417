/**
 * A string's UTF-16 code units (lone surrogates too), copied natively into a reused buffer
 * (little-endian, as wherever Node runs). Loops over text read a typed array faster than
 * charCodeAt, which re-checks the string's representation at every call (a sliced sentence
 * adds an indirection): the splitter and the n-gram hashers read their text this way
 * (docs/benchmarks/speed-and-memory.md, "The bare pipeline").
 */
export class CodeUnitCopy {
  private units = new Uint16Array(1 << 12);
  private bytes = Buffer.from(this.units.buffer);

  /**
   * text's code units as a view of exactly text.length, valid until the next copy: a read
   * past either end gives undefined, which every comparison, table lookup and arithmetic
   * treats as charCodeAt's NaN.
   */
  of(text: string): Uint16Array {
    if (this.units.length < text.length) {
      this.units = new Uint16Array(Math.max(text.length, 2 * this.units.length));
      this.bytes = Buffer.from(this.units.buffer);
    }
    this.bytes.write(text, 0, 'utf16le');
    return this.units.subarray(0, text.length);
  }
}
