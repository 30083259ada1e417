/** The eval spec's `avoidKeptGroups` settings: their own file, so spec.ts need not load the loop (kept-groups.ts), which loads the engine's types, which name the spec's. */
export interface KeptGroupsSpec {
  /** Groups of the kept text (inspect --groups). */
  groups: number;
  /** A group is avoided when at least this share of its characters is out of domain. */
  outOfDomain: number;
  /** Sentences drawn from the avoided groups (fit --avoid). */
  sentences: number;
  /** Groups for the task-like pieces (groupText's likeGroups; default half of groups). */
  likeGroups?: number;
}

export const KEPT_GROUPS_DEFAULTS: KeptGroupsSpec = { groups: 12, outOfDomain: 0.75, sentences: 200 };
