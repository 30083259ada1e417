import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { TadpoleError } from '../core/errors.js';

/**
 * better-sqlite3 by Node major, measured on this machine (Node 20.20 and 24.21):
 * - 12.x is built against V8's ABI (compiled at install); on Node 24 every process that
 *   used it aborts at exit (`Assertion failed: (env) != nullptr` in
 *   RemoveEnvironmentCleanupHook, from Statement::~Statement: better-sqlite3 12 derives
 *   from node::ObjectWrap, whose Node 24 destructor needs a live Environment).
 * - 13.x is Node-API (prebuilt binaries in the package, nothing compiled, one build for
 *   every Node >= 22) and exits cleanly on Node 24, but needs Node >= 22: it segfaults on 20.
 * So Node >= 22 loads 13 (installed as `better-sqlite3-napi`), Node 20 loads 12. 13 is an
 * optional dependency (npm skips it on Node 20, its engines say >= 22, without a warning);
 * 12 compiles at install, so it is an optional peer that the checkout installs (devDependencies)
 * and a package install does not: a run directory on Node 20 then asks for it here.
 */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

let driver: typeof BetterSqlite3 | undefined;

export function sqliteDriver(): typeof BetterSqlite3 {
  if (driver) return driver;
  const name = NODE_MAJOR >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
  try {
    driver = createRequire(import.meta.url)(name) as typeof BetterSqlite3;
  } catch (err) {
    const fix = NODE_MAJOR >= 22 ? 'reinstall tadpole (npm ci in a checkout) on this Node' : 'npm install better-sqlite3@12 (an optional dependency for Node 20; it compiles), or use Node 22 or later';
    throw new TadpoleError('TADPOLE_RUN', `cannot load ${name} for the run ledger on Node ${process.version} (${(err as Error).message.split('\n')[0]}): ${fix}`, { cause: err });
  }
  return driver;
}
