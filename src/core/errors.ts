/** Stable error codes: scripts match on `code`, people read `message`. */
export type TadpoleErrorCode =
  | 'TADPOLE_USAGE'
  | 'TADPOLE_INPUT'
  | 'TADPOLE_INPUT_CHANGED'
  | 'TADPOLE_MODEL'
  | 'TADPOLE_MODEL_MISMATCH'
  | 'TADPOLE_EMBEDDER'
  | 'TADPOLE_IO'
  | 'TADPOLE_LIMIT'
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
  // Too few file descriptors, too little memory or address space, a thread that cannot start
  // (src/core/limits.ts): the same run can pass with the limit raised or fewer --workers.
  limit: 6,
  sigint: 130,
  sigterm: 143,
  // The terminal closed (or a supervisor sent SIGHUP): stopped as SIGTERM stops a run.
  sighup: 129,
} as const;

const exitFor: Record<TadpoleErrorCode, number> = {
  TADPOLE_USAGE: EXIT.usage,
  TADPOLE_INPUT: EXIT.input,
  TADPOLE_INPUT_CHANGED: EXIT.input,
  TADPOLE_MODEL: EXIT.model,
  TADPOLE_MODEL_MISMATCH: EXIT.model,
  TADPOLE_EMBEDDER: EXIT.model,
  TADPOLE_IO: EXIT.io,
  TADPOLE_LIMIT: EXIT.limit,
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
    // A run-directory or internal step that failed because its disk is full or read-only is an output failure.
    if ((this.code === 'TADPOLE_RUN' || this.code === 'TADPOLE_INTERNAL') && storageFault(this.cause)) return EXIT.io;
    return exitFor[this.code];
  }
}

/**
 * Why a write failed, in words, when the cause is the storage under it (full, over quota,
 * read-only, gone bad) rather than the program: errno codes from node:fs and the SQLite
 * result codes of the run ledger. Undefined for any other error.
 */
export function storageFault(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  switch (code) {
    case 'ENOSPC':
    case 'SQLITE_FULL':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large for this filesystem';
    case 'EROFS':
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DIRECTORY':
    case 'SQLITE_READONLY_DBMOVED':
      return 'the filesystem is read-only';
    case 'EIO':
      return 'input/output error on the device';
    default:
      return code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') ? `the disk failed (${code})` : undefined;
  }
}

/**
 * An error met while writing `what` (a path, or words naming it) as one line for the user: a
 * storage fault (storageFault) or an errno from node:fs is exit 5 (TADPOLE_IO); a TadpoleError
 * passes unchanged.
 */
export function writeFailure(what: string, err: unknown, file?: string): TadpoleError {
  if (err instanceof TadpoleError) return err;
  return new TadpoleError('TADPOLE_IO', `cannot write ${what}: ${writeFailureWords(err, 'its folder is gone')}`, { cause: err, ...(file !== undefined ? { file } : {}) });
}

/** Why a write failed, in words (storageFault, permissions, a missing path as `missing` says, else the error's first line). */
export function writeFailureWords(err: unknown, missing: string): string {
  const e = err as NodeJS.ErrnoException;
  return storageFault(err) ?? (e?.code === 'ENOENT' ? missing : e?.code === 'EACCES' || e?.code === 'EPERM' ? 'permission denied' : (e?.message ?? String(err)).split('\n')[0]!);
}

export function usageError(message: string): TadpoleError {
  return new TadpoleError('TADPOLE_USAGE', message);
}
