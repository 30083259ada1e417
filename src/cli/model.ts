import { usageError } from '../core/errors.js';
import { bool, helpText, list, str, strWithDefault, type CommandSpec, type ParsedArgs } from './args.js';
import type { CliIO, Command } from './command.js';
import { listModelCache } from '../embed/onnx/cache.js';
import { pullModel } from '../embed/onnx/hub.js';
import { showModel } from '../model/describe.js';

const spec: CommandSpec = {
  name: 'model',
  summary: 'show what a fitted model file holds; fetch ONNX models from a Hugging Face hub into the cache, and list the cache',
  usage: 'tadpole model show MODEL.json [--json] [-v] | tadpole model pull <owner/name> [--revision R] [--onnx-file PATH] | tadpole model list [--json]',
  flags: [
    { name: 'revision', type: 'string', arg: 'REV', default: 'main', help: 'pull: branch, tag or commit' },
    { name: 'onnx-file', type: 'string', arg: 'PATH', help: 'pull: the .onnx file to fetch (default: onnx/model.onnx, else onnx/model_quantized.onnx, else model.onnx)' },
    { name: 'file', type: 'list', arg: 'PATH...', help: 'pull: extra repo files to fetch' },
    { name: 'all', type: 'boolean', help: 'pull: fetch every file of the repo' },
    { name: 'json', type: 'boolean', help: 'show, list: print JSON' },
    { name: 'verbose', alias: 'v', type: 'boolean', help: "show: also each scorer's internal name and the method's raw parameters" },
  ],
  notes: [
    'Subcommands:',
    '  show MODEL.json     what a file from tadpole fit holds: method, options, task and sample sizes and',
    '                      files, the held-out AUROC, the self-training moves, and whether it waits for',
    '                      the corpus (fitted without --general: filter completes it in each run, says',
    '                      its AUROC and records it in --stats) or was completed from one (the sample\'s',
    '                      fingerprint); -v: the scorers\' internal names too; --json: the same as JSON',
    '  pull <owner/name>   download config, tokenizer and one .onnx file into the cache; interrupted',
    '                      downloads resume; every file is checked by size and sha256 (or git blob id)',
    '  list                show cached models',
    '',
    'Cache: $TADPOLE_CACHE/models, else ~/.cache/tadpole/models; a model owner/name is stored as',
    'owner--name and can then be used as --model-dir owner/name. Hub: $TADPOLE_HF_ENDPOINT, else',
    '$HF_ENDPOINT, else https://huggingface.co; $HF_TOKEN is sent for private or gated repos (a',
    "user:password in the hub's address is sent as Basic authorization); neither is ever printed.",
    'The repo id (the hub\'s rules: name or owner/name), --revision and the file paths are checked',
    'before any request: no "..", no absolute path, no backslash (exit 2).',
    '',
    'Example: tadpole model pull Xenova/all-MiniLM-L6-v2 --onnx-file onnx/model_quantized.onnx',
  ].join('\n'),
};

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

async function pull(args: ParsedArgs, io: CliIO, repo: string | undefined): Promise<number> {
  // The repo's name, --revision and the file paths are checked by pullModel before any request.
  if (!repo) throw usageError(`model pull needs a repo like owner/name, got nothing; see 'tadpole model --help'`);
  const revision = strWithDefault(args, 'revision');
  const onnxFile = str(args, 'onnxFile');
  const result = await pullModel({
    repo,
    revision,
    env: io.env,
    all: bool(args, 'all'),
    files: list(args, 'file'),
    ...(onnxFile !== undefined ? { onnxFile } : {}),
    start: (endpoint) => io.stderr.write(`tadpole: pulling ${repo}@${revision} from ${endpoint}\n`),
    log: (line) => io.stderr.write(`  ${line}\n`),
  });
  const total = result.files.reduce((a, f) => a + f.size, 0);
  io.stdout.write(`${result.dir}\n`);
  io.stderr.write(`tadpole: ${result.files.length} files, ${mb(total)}; use --model-dir ${repo}\n`);
  return 0;
}

function listModels(args: ParsedArgs, io: CliIO): number {
  const { root, models } = listModelCache(io.env);
  if (bool(args, 'json')) {
    io.stdout.write(JSON.stringify(models, null, 2) + '\n');
    return 0;
  }
  if (models.length === 0) {
    io.stdout.write(`no cached models in ${root} (fetch one with 'tadpole model pull <owner/name>')\n`);
    return 0;
  }
  const rows = models.map((m) => [m.repo ?? m.name, m.revision ?? '-', mb(m.bytes), m.onnxFiles.join(',') || '(no .onnx)', m.partial ? 'partial' : 'ok']);
  const head = ['MODEL', 'REVISION', 'SIZE', 'ONNX', 'STATE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  for (const r of [head, ...rows]) io.stdout.write(r.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd() + '\n');
  return 0;
}

export const command: Command = {
  spec,
  async run(args: ParsedArgs, io: CliIO): Promise<number> {
    const [sub, ...rest] = args.positionals;
    if (sub === undefined || sub === 'help') {
      io.stdout.write(helpText(spec));
      return sub === undefined ? 2 : 0;
    }
    if (sub === 'show') {
      if (rest.length !== 1) throw usageError(`model show takes one model file, got ${rest.length ? rest.join(' ') : 'none'}`);
      const { summary, lines } = showModel(rest[0] as string, { json: bool(args, 'json'), verbose: bool(args, 'verbose') });
      io.stdout.write(lines ? lines.join('\n') + '\n' : JSON.stringify(summary, null, 2) + '\n');
      return 0;
    }
    if (sub === 'pull') {
      if (rest.length > 1) throw usageError(`model pull takes one repo, got ${rest.join(' ')}`);
      return pull(args, io, rest[0]);
    }
    if (sub === 'list') {
      if (rest.length > 0) throw usageError(`model list takes no arguments, got ${rest.join(' ')}`);
      return listModels(args, io);
    }
    throw usageError(`unknown subcommand "${sub}" for 'tadpole model'; should be one of: show, pull, list`);
  },
};
