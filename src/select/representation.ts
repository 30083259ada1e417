/**
 * Where the embedding selectors get vectors: the pipeline's Embedder (a pretrained BERT),
 * or an LSA projection fitted here and stored in the selector JSON.
 *
 * 'auto' uses the embedder the user named (`--embedder`), and otherwise fits an LSA: with
 * no BERT model that is the better default (on the Figure-5 mix hashed features gave
 * chance-level selection, 41% Bio, while distance on the LSA kept 74.9%;
 * docs/research.md, "Before the suites"), but an explicitly named embedder is never swapped out.
 */
import { TadpoleError } from '../core/errors.js';
import type { Embedder } from '../embed/embedder.js';
import { Lsa, type LsaJSON } from './lsa.js';
import { normalizeRows } from './linalg.js';
import type { OptionDecl } from '../core/option-decl.js';

export type RepresentationKind = 'auto' | 'embedder' | 'lsa';
export const REPRESENTATIONS: readonly RepresentationKind[] = ['auto', 'embedder', 'lsa'];

/** The options of every method that embeds sentences (tadpole, distance, knn-tapt, textgram). */
export const REPRESENTATION_OPTIONS: readonly OptionDecl[] = [
  { name: 'representation', type: 'choice', default: 'auto', choices: REPRESENTATIONS, help: 'sentence vectors: auto (the embedder when one is named, else LSA fitted on task and general text), lsa, embedder' },
  { name: 'dims', type: 'int', default: 64, min: 1, help: 'LSA dimensions' },
];

export interface Representation {
  readonly kind: 'embedder' | 'lsa';
  readonly dims: number;
  /** L2-normalised rows. */
  embed(sentences: string[]): Promise<Float32Array>;
  /** What to store in the selector state (the LSA itself, or the embedder's fingerprint). */
  toJSON(): Record<string, unknown>;
}

export function parseRepresentation(v: unknown): RepresentationKind {
  const s = v === undefined ? 'auto' : String(v);
  if (!(REPRESENTATIONS as readonly string[]).includes(s)) {
    throw new TadpoleError('TADPOLE_USAGE', `unknown representation "${s}"; should be one of: ${REPRESENTATIONS.join(', ')}`);
  }
  return s as RepresentationKind;
}

function useEmbedder(kind: RepresentationKind, embedder: Embedder | undefined): boolean {
  if (kind === 'embedder') {
    if (!embedder) throw new TadpoleError('TADPOLE_USAGE', 'representation "embedder" needs an embedder (--embedder onnx --model-dir DIR)');
    return true;
  }
  return kind === 'auto' && embedder !== undefined;
}

class EmbedderRepresentation implements Representation {
  readonly kind = 'embedder' as const;
  constructor(private readonly embedder: Embedder) {}
  get dims(): number {
    return this.embedder.dims;
  }
  async embed(sentences: string[]): Promise<Float32Array> {
    const X = await this.embedder.embed(sentences);
    return normalizeRows(Float32Array.from(X), sentences.length, this.dims);
  }
  toJSON(): Record<string, unknown> {
    return { kind: 'embedder', fingerprint: this.embedder.fingerprint };
  }
}

class LsaRepresentation implements Representation {
  readonly kind = 'lsa' as const;
  constructor(private readonly lsa: Lsa) {}
  get dims(): number {
    return this.lsa.dims;
  }
  async embed(sentences: string[]): Promise<Float32Array> {
    return this.lsa.transform(sentences);
  }
  toJSON(): Record<string, unknown> {
    return this.lsa.toJSON() as unknown as Record<string, unknown>;
  }
}

export interface RepresentationFitOptions {
  kind: RepresentationKind;
  embedder?: Embedder | undefined;
  /** Text the LSA is fitted on (task + general sample). */
  text: string[];
  dims?: number;
  seed: number;
}

export function fitRepresentation(o: RepresentationFitOptions): Representation {
  if (useEmbedder(o.kind, o.embedder)) return new EmbedderRepresentation(o.embedder as Embedder);
  return new LsaRepresentation(Lsa.fit(o.text, { dims: o.dims ?? 64, seed: o.seed }));
}

export function loadRepresentation(state: Record<string, unknown>, embedder: Embedder | undefined): Representation {
  if (state.kind === 'embedder') {
    if (!embedder) throw new TadpoleError('TADPOLE_EMBEDDER', 'this model was fitted on embedder vectors; give the same embedder to filter');
    const fp = state.fingerprint as { kind?: string; dims?: number } | undefined;
    if (fp && (fp.kind !== embedder.fingerprint.kind || fp.dims !== embedder.dims)) {
      throw new TadpoleError('TADPOLE_MODEL_MISMATCH', `model fitted with embedder ${fp.kind}/${fp.dims}, got ${embedder.fingerprint.kind}/${embedder.dims}`);
    }
    return new EmbedderRepresentation(embedder);
  }
  return new LsaRepresentation(Lsa.fromJSON(state as unknown as LsaJSON));
}
