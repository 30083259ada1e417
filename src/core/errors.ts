/** Stable error codes: scripts match on `code`, people read `message`. */
export type TadpoleErrorCode =
  | 'TADPOLE_USAGE'
  | 'TADPOLE_INPUT'
  | 'TADPOLE_INPUT_CHANGED'
  | 'TADPOLE_MODEL'
  | 'TADPOLE_MODEL_MISMATCH'
  | 'TADPOLE_EMBEDDER'
  | 'TADPOLE_IO'
  | 'TADPOLE_RUN'
  | 'TADPOLE_INTERNAL';

/** Exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  input: 3,
  model: 4,
  io: 5,
  sigint: 130,
  sigterm: 143,
} as const;

const exitFor: Record<TadpoleErrorCode, number> = {
  TADPOLE_USAGE: EXIT.usage,
  TADPOLE_INPUT: EXIT.input,
  TADPOLE_INPUT_CHANGED: EXIT.input,
  TADPOLE_MODEL: EXIT.model,
  TADPOLE_MODEL_MISMATCH: EXIT.model,
  TADPOLE_EMBEDDER: EXIT.model,
  TADPOLE_IO: EXIT.io,
  TADPOLE_RUN: EXIT.failure,
  TADPOLE_INTERNAL: EXIT.failure,
};

export class TadpoleError extends Error {
  readonly code: TadpoleErrorCode;
  readonly file?: string;
  readonly line?: number;
  constructor(code: TadpoleErrorCode, message: string, where?: { file?: string; line?: number; cause?: unknown }) {
    super(message, where?.cause !== undefined ? { cause: where.cause } : undefined);
    this.name = 'TadpoleError';
    this.code = code;
    if (where?.file !== undefined) this.file = where.file;
    if (where?.line !== undefined) this.line = where.line;
  }
  get exitCode(): number {
    return exitFor[this.code];
  }
}

export function usageError(message: string): TadpoleError {
  return new TadpoleError('TADPOLE_USAGE', message);
}
