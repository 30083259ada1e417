/**
 * Text safe to print on one terminal line: control characters (C0, DEL, C1), which a damaged
 * or hostile file can put into an error message, are written as \xNN, and line breaks as \n.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}
