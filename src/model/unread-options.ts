/**
 * Which fit options did the fit never read? Every key is declared by the method (an unknown
 * one is refused before the fit: select/registry.ts), but some apply only in a setting
 * (guardShare with style=guard, generalSize with detector knn-ratio): one given outside it
 * changes nothing, and the user should hear so at fit time, not from a nightly run's output.
 */
import { methodOwners } from '../select/registry.js';

export function trackOptionReads(options: Record<string, unknown>): { tracked: Record<string, unknown>; unread: () => string[] } {
  const read = new Set<string>();
  const tracked = new Proxy(options, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver);
    },
    // A copy ({ ...options }) hands every key on: count them all as read (no false alarm).
    ownKeys(target) {
      for (const k of Reflect.ownKeys(target)) if (typeof k === 'string') read.add(k);
      return Reflect.ownKeys(target);
    },
  });
  return { tracked, unread: () => Object.keys(options).filter((k) => !read.has(k)) };
}

export function describeUnread(method: string, keys: string[], options: Record<string, unknown> = {}): string {
  const decls = methodOwners(method, options).flatMap((o) => o.options);
  const list = keys.map((k) => `--option ${k}`).join(', ');
  const what = keys.map((k) => decls.find((d) => d.name === k)).filter((d) => d !== undefined).map((d) => `${d.name}: ${d.help}`);
  return `warning: ${list} ${keys.length === 1 ? 'was' : 'were'} not used by this ${method} fit and ${keys.length === 1 ? 'changes' : 'change'} nothing${what.length ? ` (${what.join('; ')})` : ''}; see tadpole fit --method ${method} --help`;
}
