import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { TadpoleError } from '../core/errors.js';
import type { CommandSpec, ParsedArgs } from './args.js';
import { STDIN } from '../io/input.js';
import { expandInputs, statOrUndefined } from '../io/inputs/expand.js';

/**
 * Checks made before a command reads anything: every output it will write can be written
 * (its folder exists and is a folder), no output is one of its inputs (the same file
 * through links and relative paths), and no two outputs are the same file. A user's
 * mistake then costs nothing: one line, an exit code, and no input touched.
 */
export function preflight(spec: CommandSpec, args: ParsedArgs, cwd: string): void {
  const outputs: Array<{ flag: string; path: string; kind: 'file' | 'dir' }> = [];
  const inputs: Array<{ flag: string; path: string }> = [];
  for (const f of spec.flags) {
    const value = args.flags[f.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (value === undefined || value === false) continue;
    const values = Array.isArray(value) ? value : [String(value)];
    if (f.role === 'output-file' || f.role === 'output-dir') {
      const remote = values.filter((v) => /^(s3|https?|hf):\/\//i.test(v));
      for (const v of remote) checkRemoteOutput(spec, args, f.name, f.alias, v);
      for (const v of values) if (v !== '-' && !remote.includes(v)) outputs.push({ flag: f.alias ? `-${f.alias}/--${f.name}` : `--${f.name}`, path: resolve(cwd, v), kind: f.role === 'output-file' ? 'file' : 'dir' });
    } else if (f.role === 'input') {
      for (const v of values) if (v !== STDIN) inputs.push({ flag: `--${f.name}`, path: v });
    }
  }
  if (spec.positionalInputs) for (const p of args.positionals) if (p !== STDIN) inputs.push({ flag: 'input', path: p });
  if (outputs.length === 0) return;
  for (const o of outputs) checkWritable(o.flag, o.path, o.kind, cwd);
  const files = outputs.filter((o) => o.kind === 'file');
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      if (sameFile(files[i]!.path, files[j]!.path)) {
        throw new TadpoleError('TADPOLE_USAGE', `${files[i]!.flag} and ${files[j]!.flag} name the same file (${shown(files[i]!.path, cwd)}): give each output its own name`);
      }
    }
  }
  const existing = files.filter((o) => existsSync(o.path));
  if (existing.length === 0) return;
  for (const input of inputs) {
    // Folders and globs are checked file by file: an output inside an input folder is one of its inputs.
    const expanded = expandedQuietly(resolve(cwd, input.path));
    for (const file of expanded) {
      for (const o of existing) {
        if (sameFile(o.path, file)) {
          throw new TadpoleError('TADPOLE_USAGE', `${o.flag} ${shown(o.path, cwd)} is ${input.flag === 'input' ? 'an input' : `the ${input.flag} input`}${file !== resolve(cwd, input.path) ? ` (under ${input.path})` : ''}: tadpole never writes over what it reads; choose another output name`);
        }
      }
    }
  }
}

/** Commands whose kept text streams to one output: that output may be an S3 object (src/io/remote/upload.ts). */
const OBJECT_OUTPUT = new Set(['filter', 'score', 'split']);

function checkRemoteOutput(spec: CommandSpec, args: ParsedArgs, name: string, alias: string | undefined, value: string): void {
  const flag = `${alias ? `-${alias}/` : ''}--${name}`;
  const scheme = value.split('://')[0]!.toLowerCase();
  if (scheme === 's3' && name === 'output' && OBJECT_OUTPUT.has(spec.name) && args.flags.runDir === undefined) {
    if (!/^s3:\/\/[^/]+\/.+$/.test(value) || value.endsWith('/')) throw new TadpoleError('TADPOLE_USAGE', `${flag}: an output object is s3://BUCKET/KEY`);
    return;
  }
  if (scheme === 's3') throw new TadpoleError('TADPOLE_USAGE', `${flag}: an s3:// output is written only by filter, score and split -o, without --run-dir; write a file and upload it`);
  throw new TadpoleError('TADPOLE_USAGE', `${flag}: outputs are local files or s3:// objects, not ${scheme}:// addresses; write a file and upload it`);
}

function expandedQuietly(path: string): string[] {
  try {
    return expandInputs([path]);
  } catch {
    return []; // a missing input is the command's own error to give, with its own wording
  }
}

function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}


/** The same file: one inode on one device (links, `./a` and `a`, a bind mount), or the same path. */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const sa = statOrUndefined(a);
  const sb = statOrUndefined(b);
  return !!sa && !!sb && sa.isFile() && sa.dev === sb.dev && sa.ino === sb.ino;
}

function checkWritable(flag: string, path: string, kind: 'file' | 'dir', cwd: string): void {
  const here = statOrUndefined(path);
  if (here) {
    if (kind === 'file' && here.isDirectory()) throw new TadpoleError('TADPOLE_IO', `cannot write ${flag} ${shown(path, cwd)}: it is a folder; name a file`);
    if (kind === 'dir' && !here.isDirectory()) throw new TadpoleError('TADPOLE_IO', `cannot use ${flag} ${shown(path, cwd)}: it is a file, not a folder`);
    if (kind === 'dir') {
      refuseKernelFs(flag, path, path, cwd);
      return writableFolder(flag, path, path, cwd);
    }
    if (!here.isFile()) return; // a device or a pipe (/dev/null, a fifo) is written in place
  }
  if (kind === 'file') {
    const folder = dirname(path);
    const st = statOrUndefined(folder);
    if (!st) throw new TadpoleError('TADPOLE_IO', `cannot write ${flag} ${shown(path, cwd)}: the folder ${shown(folder, cwd)} does not exist (create it first)`);
    if (!st.isDirectory()) throw new TadpoleError('TADPOLE_IO', `cannot write ${flag} ${shown(path, cwd)}: ${shown(folder, cwd)} is not a folder`);
    refuseKernelFs(flag, path, folder, cwd);
    return writableFolder(flag, path, folder, cwd);
  }
  // A folder output is created with its parents: the nearest one that exists must be a writable folder.
  let up = dirname(path);
  let st = statOrUndefined(up);
  for (; !st; st = statOrUndefined(up)) up = dirname(up);
  if (!st.isDirectory()) throw new TadpoleError('TADPOLE_IO', `cannot create ${flag} ${shown(path, cwd)}: ${shown(up, cwd)} is a file, not a folder`);
  refuseKernelFs(flag, path, up, cwd);
  writableFolder(flag, path, up, cwd);
}

function writableFolder(flag: string, path: string, folder: string, cwd: string): void {
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new TadpoleError('TADPOLE_IO', `cannot write ${flag} ${shown(path, cwd)}: the folder ${shown(folder, cwd)} is not writable`);
  }
}

/**
 * Filesystems that are the kernel's view of itself (statfs f_type, linux/magic.h): their
 * files look regular (/proc/version: size 0) and root may "write" their folders, but no temp
 * file can be made beside one and renamed over it, so a run wrote everything and failed at
 * the end ("its folder is gone"). Devices and pipes (/dev/full, /dev/null, a fifo) are not files
 * and are written in place, never reach this check.
 */
const KERNEL_FS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x62656570, 'configfs'],
  [0x6165676c, 'pstore'],
  [0xde5e81e4, 'efivarfs'],
]);

function refuseKernelFs(flag: string, path: string, folder: string, cwd: string): void {
  let type: number;
  try {
    type = statfsSync(folder).type;
  } catch {
    return; // the writability check that follows names the folder's fault
  }
  const fs = KERNEL_FS.get(type);
  if (fs) throw new TadpoleError('TADPOLE_IO', `cannot write ${flag} ${shown(path, cwd)}: ${shown(folder, cwd)} is the kernel's ${fs} filesystem, not a disk: no file can be written there and renamed into place; name a file on a disk`);
}
