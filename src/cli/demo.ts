import type { CommandSpec } from './args.js';
import type { Command } from './command.js';

const spec: CommandSpec = { name: 'demo', summary: 'placeholder', usage: 'tadpole demo', flags: [] };
export const command: Command = {
  spec,
  async run(_args, io) {
    io.stderr.write('demo: not yet\n');
    return 1;
  },
};
