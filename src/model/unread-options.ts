/**
 * Which fit options did the fit never read? A selector reads its options by name
 * (select/options.ts), so a key nobody asked for is a typo (`round=0` for `rounds=0`) or an
 * option of another method, and it changes nothing: the user should hear so at fit time,
 * not find out from a nightly run's output.
 */
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

export function describeUnread(method: string, keys: string[]): string {
  const list = keys.map((k) => `--option ${k}`).join(', ');
  return `warning: ${list} ${keys.length === 1 ? 'was' : 'were'} not read by the ${method} fit and ${keys.length === 1 ? 'changes' : 'change'} nothing: a typo, or an option of another method? (see tadpole fit --help)`;
}
