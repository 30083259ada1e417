import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TadpoleError } from '../../core/errors.js';
import { bertNormalize, bertPreTokenize, type BertNormalizeOptions } from './normalize.js';

/**
 * BERT WordPiece tokenizer, ids equal to Hugging Face `tokenizers` (checked on >= 10,000
 * corpus sentences in test/embed/onnx/tokenizer.test.ts). Reads `tokenizer.json` (model
 * type WordPiece, BertNormalizer, BertPreTokenizer) or `vocab.txt` + `tokenizer_config.json`.
 */
export interface WordPieceConfig {
  vocab: Map<string, number>;
  unkToken: string;
  continuingSubwordPrefix: string;
  maxInputCharsPerWord: number;
  normalize: BertNormalizeOptions;
  clsToken: string;
  sepToken: string;
  padToken: string;
  /** Tokens matched verbatim in the raw text before normalisation ([CLS], [MASK], ...). */
  specialTokens: string[];
  /** The tokenizer's own truncation length, when tokenizer.json sets one. */
  truncation?: number;
}

/** Cached word -> piece ids; cleared when full. 200k words is ~20 MB. */
const WORD_CACHE_LIMIT = 200_000;

export class WordPieceTokenizer {
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  readonly unkId: number;
  readonly vocabSize: number;
  readonly truncation: number | undefined;
  private readonly vocab: Map<string, number>;
  private readonly prefix: string;
  private readonly maxChars: number;
  private readonly maxPieceLen: number;
  private readonly norm: BertNormalizeOptions;
  private readonly special: Map<string, number>;
  private readonly specialRe: RegExp | undefined;
  private readonly cache = new Map<string, number[]>();

  constructor(cfg: WordPieceConfig) {
    this.vocab = cfg.vocab;
    this.prefix = cfg.continuingSubwordPrefix;
    this.maxChars = cfg.maxInputCharsPerWord;
    this.norm = cfg.normalize;
    this.truncation = cfg.truncation;
    const id = (tok: string): number => {
      const v = cfg.vocab.get(tok);
      if (v === undefined) throw new TadpoleError('TADPOLE_EMBEDDER', `tokenizer vocabulary has no "${tok}" token`);
      return v;
    };
    this.clsId = id(cfg.clsToken);
    this.sepId = id(cfg.sepToken);
    this.padId = id(cfg.padToken);
    this.unkId = id(cfg.unkToken);
    let maxLen = 0;
    for (const k of cfg.vocab.keys()) if (k.length > maxLen) maxLen = k.length;
    this.maxPieceLen = maxLen;
    this.vocabSize = cfg.vocab.size;
    this.special = new Map();
    for (const s of cfg.specialTokens) {
      const v = cfg.vocab.get(s);
      if (v !== undefined && s.length > 0) this.special.set(s, v);
    }
    if (this.special.size > 0) {
      // Longest first, so that the leftmost-longest match wins as in `tokenizers`.
      const alts = [...this.special.keys()].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.specialRe = new RegExp(alts.join('|'), 'g');
    }
  }

  /** Piece ids of `text` with [CLS] ... [SEP], truncated to at most `maxTokens` ids in all. */
  encode(text: string, maxTokens = Infinity): Int32Array {
    const body: number[] = [];
    const limit = maxTokens - 2;
    this.encodeBody(text, body, limit);
    const n = Math.max(0, Math.min(body.length, limit));
    const out = new Int32Array(n + 2);
    out[0] = this.clsId;
    for (let i = 0; i < n; i++) out[i + 1] = body[i] as number;
    out[n + 1] = this.sepId;
    return out;
  }

  /** Word-piece ids without special tokens or truncation. */
  encodeWithoutSpecial(text: string): number[] {
    const body: number[] = [];
    this.encodeBody(text, body, Infinity);
    return body;
  }

  private encodeBody(text: string, out: number[], limit: number): void {
    const re = this.specialRe;
    if (re === undefined || !text.includes('[') && !this.hasOtherSpecialStart(text)) {
      this.encodePlain(text, out, limit);
      return;
    }
    re.lastIndex = 0;
    let last = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null && out.length < limit) {
      if (m.index > last) this.encodePlain(text.slice(last, m.index), out, limit);
      out.push(this.special.get(m[0]) as number);
      last = m.index + m[0].length;
    }
    if (last < text.length) this.encodePlain(text.slice(last), out, limit);
  }

  /** Special tokens of BERT models all start with '['; others are checked by the regex. */
  private hasOtherSpecialStart(text: string): boolean {
    for (const s of this.special.keys()) if (!s.startsWith('[') && text.includes(s)) return true;
    return false;
  }

  private encodePlain(text: string, out: number[], limit: number): void {
    if (out.length >= limit) return;
    const s = bertNormalize(text, this.norm);
    bertPreTokenize(s, (word) => {
      if (out.length >= limit) return;
      const ids = this.wordIds(word);
      for (let i = 0; i < ids.length; i++) out.push(ids[i] as number);
    });
  }

  private wordIds(word: string): number[] {
    const hit = this.cache.get(word);
    if (hit !== undefined) return hit;
    const ids = this.pieces(word);
    if (this.cache.size >= WORD_CACHE_LIMIT) this.cache.clear();
    this.cache.set(word, ids);
    return ids;
  }

  /** Greedy longest-match-first WordPiece, on code points; [UNK] for the whole word if any part fails. */
  private pieces(word: string): number[] {
    const astral = /[\ud800-\udfff]/.test(word);
    const chars = astral ? Array.from(word) : undefined;
    const n = chars ? chars.length : word.length;
    if (n > this.maxChars) return [this.unkId];
    const sub = (a: number, b: number): string => (chars ? chars.slice(a, b).join('') : word.slice(a, b));
    const ids: number[] = [];
    let start = 0;
    while (start < n) {
      let end = Math.min(n, start + this.maxPieceLen);
      let found = -1;
      while (start < end) {
        const piece = start > 0 ? this.prefix + sub(start, end) : sub(start, end);
        const id = this.vocab.get(piece);
        if (id !== undefined) {
          found = id;
          break;
        }
        end--;
      }
      if (found < 0) return [this.unkId];
      ids.push(found);
      start = end;
    }
    return ids;
  }
}

interface TokenizerJson {
  truncation?: { max_length?: number } | null;
  added_tokens?: { content: string; special?: boolean; normalized?: boolean }[];
  normalizer?: {
    type?: string;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
    strip_accents?: boolean | null;
    lowercase?: boolean;
  } | null;
  pre_tokenizer?: { type?: string } | null;
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
}

interface TokenizerConfigJson {
  do_lower_case?: boolean;
  strip_accents?: boolean | null;
  tokenize_chinese_chars?: boolean;
  cls_token?: string | { content: string };
  sep_token?: string | { content: string };
  pad_token?: string | { content: string };
  unk_token?: string | { content: string };
  mask_token?: string | { content: string };
}

function tokenName(v: string | { content: string } | undefined, fallback: string): string {
  if (v === undefined) return fallback;
  return typeof v === 'string' ? v : v.content;
}

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new TadpoleError('TADPOLE_EMBEDDER', `cannot read ${path}: ${(err as Error).message}`, { file: path, cause: err });
  }
}

export function tokenizerFromJson(json: TokenizerJson, config: TokenizerConfigJson = {}, where = 'tokenizer.json'): WordPieceTokenizer {
  const model = json.model;
  if (!model || model.type !== 'WordPiece' || !model.vocab) {
    throw new TadpoleError(
      'TADPOLE_EMBEDDER',
      `${where}: model type is "${model?.type ?? 'missing'}", only BERT WordPiece tokenizers are supported; put a vocab.txt beside it or use a BERT-family model`,
    );
  }
  const n = json.normalizer;
  if (n && n.type !== 'BertNormalizer') {
    throw new TadpoleError('TADPOLE_EMBEDDER', `${where}: normalizer "${n.type}" is not supported (only BertNormalizer)`);
  }
  if (json.pre_tokenizer && json.pre_tokenizer.type !== 'BertPreTokenizer') {
    throw new TadpoleError('TADPOLE_EMBEDDER', `${where}: pre_tokenizer "${json.pre_tokenizer.type}" is not supported (only BertPreTokenizer)`);
  }
  const lowercase = n?.lowercase ?? true;
  const vocab = new Map<string, number>(Object.entries(model.vocab));
  const special = (json.added_tokens ?? []).filter((t) => t.special !== false && t.normalized !== true).map((t) => t.content);
  const maxLen = json.truncation?.max_length;
  return new WordPieceTokenizer({
    vocab,
    unkToken: model.unk_token ?? '[UNK]',
    continuingSubwordPrefix: model.continuing_subword_prefix ?? '##',
    maxInputCharsPerWord: model.max_input_chars_per_word ?? 100,
    normalize: {
      cleanText: n?.clean_text ?? true,
      handleChineseChars: n?.handle_chinese_chars ?? true,
      // strip_accents: null means "follow lowercase", as in `tokenizers`.
      stripAccents: n?.strip_accents ?? lowercase,
      lowercase,
    },
    clsToken: tokenName(config.cls_token, '[CLS]'),
    sepToken: tokenName(config.sep_token, '[SEP]'),
    padToken: tokenName(config.pad_token, '[PAD]'),
    ...(typeof maxLen === 'number' ? { truncation: maxLen } : {}),
    specialTokens: special,
  });
}

export function tokenizerFromVocab(vocabText: string, config: TokenizerConfigJson = {}): WordPieceTokenizer {
  const vocab = new Map<string, number>();
  const lines = vocabText.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const tok = (lines[i] as string).replace(/\r$/, '');
    if (!vocab.has(tok)) vocab.set(tok, i);
  }
  const lowercase = config.do_lower_case ?? true;
  const names = {
    cls: tokenName(config.cls_token, '[CLS]'),
    sep: tokenName(config.sep_token, '[SEP]'),
    pad: tokenName(config.pad_token, '[PAD]'),
    unk: tokenName(config.unk_token, '[UNK]'),
    mask: tokenName(config.mask_token, '[MASK]'),
  };
  return new WordPieceTokenizer({
    vocab,
    unkToken: names.unk,
    continuingSubwordPrefix: '##',
    maxInputCharsPerWord: 100,
    normalize: {
      cleanText: true,
      handleChineseChars: config.tokenize_chinese_chars ?? true,
      stripAccents: config.strip_accents ?? lowercase,
      lowercase,
    },
    clsToken: names.cls,
    sepToken: names.sep,
    padToken: names.pad,
    specialTokens: [names.pad, names.unk, names.cls, names.sep, names.mask],
  });
}

/** tokenizer.json when present, else vocab.txt; tokenizer_config.json adds the special token names. */
export function loadTokenizer(modelDir: string): WordPieceTokenizer {
  const cfgPath = join(modelDir, 'tokenizer_config.json');
  const config = existsSync(cfgPath) ? readJson<TokenizerConfigJson>(cfgPath) : {};
  const jsonPath = join(modelDir, 'tokenizer.json');
  if (existsSync(jsonPath)) return tokenizerFromJson(readJson<TokenizerJson>(jsonPath), config, jsonPath);
  const vocabPath = join(modelDir, 'vocab.txt');
  if (existsSync(vocabPath)) return tokenizerFromVocab(readFileSync(vocabPath, 'utf8'), config);
  throw new TadpoleError(
    'TADPOLE_EMBEDDER',
    `no tokenizer in ${modelDir}: expected tokenizer.json or vocab.txt (a Hugging Face snapshot; 'tadpole model pull <repo>' fetches one)`,
  );
}
