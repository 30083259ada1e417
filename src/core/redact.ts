/**
 * Secrets never reach a message: the user and password of an address (`http://u:pw@host`,
 * as a hub mirror may be written) become `***`, and so does every token value given (HF_TOKEN).
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text.replace(/\/\/[^/\s@]*@/g, '//***@');
  // Short values are skipped: replacing every "a" would garble the message and hide nothing.
  for (const s of secrets) if (s !== undefined && s.length >= 4) out = out.split(s).join('***');
  return out;
}
