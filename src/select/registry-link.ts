import type { SelectorFactory } from './selector.js';

/**
 * What an ensemble or auto needs from the registry (registry.ts) to fit its components by
 * name. The registry hands itself over here when it loads: the composite methods are in the
 * registry, so importing it from them would make a circle of imports.
 */
export interface RegistryLink {
  selectorFactory(method: string): SelectorFactory;
  /** A component's own options, checked against its declarations (a usage error otherwise). */
  checkMethodOptions(method: string, options: Record<string, unknown>): void;
}

let link: RegistryLink | undefined;

export function linkRegistry(registry: RegistryLink): void {
  link = registry;
}

export function linkedRegistry(): RegistryLink {
  if (!link) throw new Error('the selection methods are not registered: import src/select/registry.ts (the library entry and the model fit/open code do) before fitting or loading an ensemble');
  return link;
}
