/**
 * Text repairs for sources whose formatting would let a filter tell them apart by style
 * alone (SOURCES.md caveats): tokenised text, lower-cased text, markup, POS tags, headers.
 * Each step is a named pure function so a spec can list the ones it applies.
 */

export type NormalizeStep =
  | 'detokenize'
  | 'truecase'
  | 'strip-markers'
  | 'strip-tags'
  | 'strip-email-headers'
  | 'strip-pos-tags'
  | 'strip-unk';

export const NORMALIZE_STEPS: readonly NormalizeStep[] = [
  'detokenize',
  'truecase',
  'strip-markers',
  'strip-tags',
  'strip-email-headers',
  'strip-pos-tags',
  'strip-unk',
];

/**
 * Undo PTB/wikitext-style tokenisation: "word ," -> "word,", "( x )" -> "(x)",
 * "`` x ''" -> "\"x\"", "do n't" -> "don't", "@-@" -> "-", "1 @,@ 000" -> "1,000",
 * "-LRB-" -> "(", and a spaced hyphen between word characters ("GSK - 3beta") -> "GSK-3beta".
 */
export function detokenize(text: string): string {
  return text
    .replace(/-LRB-/g, '(')
    .replace(/-RRB-/g, ')')
    .replace(/-LSB-/g, '[')
    .replace(/-RSB-/g, ']')
    .replace(/-LCB-/g, '{')
    .replace(/-RCB-/g, '}')
    .replace(/ @([-.,])@ /g, '$1')
    .replace(/``\s*/g, '"')
    .replace(/\s*''/g, '"')
    .replace(/([(\[{$]) +/g, '$1')
    .replace(/ +([)\]}])/g, '$1')
    .replace(/ +([,.;:!?%])/g, '$1')
    .replace(/ +(n't|'s|'re|'ve|'ll|'d|'m)\b/gi, '$1')
    .replace(/(\w) - (?=\w)/g, '$1-')
    .replace(/" ([^"\n]*?) "/g, '"$1"')
    .replace(/ {2,}/g, ' ');
}

/** Restore sentence-initial capitals and the pronoun "I" in lower-cased text. */
export function truecase(text: string): string {
  return text
    .replace(/(^|[.!?]\s+|\n\s*)([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase())
    .replace(/\bi\b(?=[\s'’,.!?;:]|$)/g, 'I');
}

/** ChemProt/SciERC entity markers: "<< Ang II >>", "[[ valsartan ]]". */
export function stripMarkers(text: string): string {
  return text
    .replace(/<<\s*/g, '')
    .replace(/\s*>>/g, '')
    .replace(/\[\[\s*/g, '')
    .replace(/\s*\]\]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', trade: '™', reg: '®', copy: '©' };

/** SGML/HTML tags removed, common named entities decoded. */
export function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&([a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? ' ')
    .replace(/[ \t]{2,}/g, ' ');
}

/** A Usenet/e-mail post: drop the header block (up to the first blank line) and quoted lines. */
export function stripEmailHeaders(text: string): string {
  const blank = text.search(/\n\s*\n/);
  const body = /^[A-Za-z-]+: /.test(text) && blank >= 0 ? text.slice(blank).replace(/^\s+/, '') : text;
  return body
    .split('\n')
    .filter((l) => !/^\s*(>|\|>|In article <)/.test(l))
    .join('\n');
}

/** Brown corpus "word/tag" tokens -> words (tags never contain a slash; words may). */
export function stripPosTags(text: string): string {
  return text
    .split(/(\s+)/)
    .map((tok) => {
      const slash = tok.lastIndexOf('/');
      return slash > 0 ? tok.slice(0, slash) : tok;
    })
    .join('');
}

/** wikitext's "<unk>" placeholder removed (it would mark the source by itself). */
export function stripUnk(text: string): string {
  return text.replace(/ ?<unk>/g, '');
}

const STEP_FNS: Record<NormalizeStep, (t: string) => string> = {
  detokenize,
  truecase,
  'strip-markers': stripMarkers,
  'strip-tags': stripTags,
  'strip-email-headers': stripEmailHeaders,
  'strip-pos-tags': stripPosTags,
  'strip-unk': stripUnk,
};

/**
 * Apply steps in a fixed order whatever order the spec lists them in: structure first
 * (headers, tags, markers, <unk>), then detokenise, then truecase.
 */
export function normalizer(steps: readonly NormalizeStep[]): (text: string) => string {
  const order = NORMALIZE_STEPS.filter((s) => steps.includes(s));
  const first = order.filter((s) => s !== 'detokenize' && s !== 'truecase');
  const last = order.filter((s) => s === 'detokenize' || s === 'truecase');
  const fns = [...first, ...last].map((s) => STEP_FNS[s]);
  return (text) => fns.reduce((t, f) => f(t), text);
}
