import type { Readable, Writable } from 'node:stream';
import type { CommandSpec, ParsedArgs } from './args.js';

/** What a command may touch: the CLI passes process streams, tests pass their own. */
export interface CliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** True when stderr is a terminal: progress lines are shown only then. */
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  spec: CommandSpec;
  /** More help after the flags, for these raw arguments (`fit --method X --help`: X's options). */
  help?(argv: string[]): string;
  /** Returns the exit code. Throw TadpoleError for user-facing failures. */
  run(args: ParsedArgs, io: CliIO): Promise<number>;
}
