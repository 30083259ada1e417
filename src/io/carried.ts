import { jsonMembers } from './format/json-members.js';

/**
 * A record's fields other than its text, as the JSON text a JSONL output record is built
 * from: for a JSONL input each member exactly as the input line wrote it (key and value, in
 * input order, duplicates kept); for CSV and Parquet the members this reader writes for the
 * columns. A member named "tadpole" is left out: the output's own "tadpole" member replaces it.
 */
export interface CarriedFields {
  /** `key:value` members before the text field's, comma-joined ('' for none). */
  before: string;
  /** The text field's key as JSON text (as the input wrote it). */
  textKey: string;
  /** `key:value` members after the text field's, comma-joined ('' for none). */
  after: string;
}

/** One output record: the carried members around the kept text, then the "tadpole" member (JSON text). */
export function recordText(c: CarriedFields, text: string, tadpole: string): string {
  return `{${c.before}${c.before ? ',' : ''}${c.textKey}:${JSON.stringify(text)}${c.after ? ',' : ''}${c.after},"tadpole":${tadpole}}`;
}

/** The text field's name, and the tool's own, as the bytes of JSON strings: compared with keys without decoding them. */
export interface CarryKeys {
  textField: string;
  textJson: Buffer;
}

const TADPOLE = 'tadpole';
const TADPOLE_JSON = Buffer.from(JSON.stringify(TADPOLE));

export function carryKeys(textField: string): CarryKeys {
  return { textField, textJson: Buffer.from(JSON.stringify(textField)) };
}

/**
 * The carried fields of the JSONL record in buf[from, to), a line JSON.parse accepted as an
 * object with the text field. The text is the last member with its key, as JSON.parse reads
 * it; an earlier one is carried as written. Strings are made from the line's bytes, so they
 * hold no reference to the decoded line (which holds the whole text).
 */
export function carriedFromLine(buf: Buffer, from: number, to: number, keys: CarryKeys): CarriedFields | undefined {
  const m = jsonMembers(buf, from, to);
  if (m === undefined) return undefined;
  let textAt = -1;
  for (let i = m.length - 4; i >= 0; i -= 4) {
    if (keyIs(buf, m[i]!, m[i + 1]!, keys.textJson, keys.textField)) {
      textAt = i;
      break;
    }
  }
  if (textAt < 0) return undefined;
  let before = '';
  let after = '';
  for (let i = 0; i < m.length; i += 4) {
    if (i === textAt) continue;
    const ks = m[i]!;
    const ke = m[i + 1]!;
    if (keyIs(buf, ks, ke, TADPOLE_JSON, TADPOLE)) continue;
    const vs = m[i + 2]!;
    const ve = m[i + 3]!;
    // Whitespace between a key and its value is not part of either: written `key:value`.
    const member = vs === ke + 1 ? buf.toString('utf8', ks, ve) : `${buf.toString('utf8', ks, ke)}:${buf.toString('utf8', vs, ve)}`;
    if (i < textAt) before = before ? `${before},${member}` : member;
    else after = after ? `${after},${member}` : member;
  }
  return { before, textKey: buf.toString('utf8', m[textAt]!, m[textAt + 1]!), after };
}

/** Whether the JSON string buf[ks, ke) is `name` (json: JSON.stringify(name) as bytes). */
function keyIs(buf: Buffer, ks: number, ke: number, json: Buffer, name: string): boolean {
  for (let i = ks + 1; i < ke - 1; i++) {
    // An escape may spell any name: decode it (keys are short and escaped keys rare).
    if (buf[i] === 0x5c) return JSON.parse(buf.toString('utf8', ks, ke)) === name;
  }
  return ke - ks === json.length && buf.compare(json, 0, json.length, ks, ke) === 0;
}

/**
 * Carried fields from columns (CSV, Parquet), in column order: `keys` the names as JSON text,
 * `value(k)` column k's value as JSON text (never asked for the text column's, which may be
 * long). The text is column `textColumn`; a column named "tadpole" is left out.
 */
export function carriedFromColumns(names: readonly string[], keys: readonly string[], value: (k: number) => string, textColumn: number): CarriedFields {
  let before = '';
  let after = '';
  for (let k = 0; k < keys.length; k++) {
    if (k === textColumn || names[k] === TADPOLE) continue;
    const member = `${keys[k]}:${value(k)}`;
    if (k < textColumn) before = before ? `${before},${member}` : member;
    else after = after ? `${after},${member}` : member;
  }
  return { before, textKey: keys[textColumn]!, after };
}
