/** The eval spec's `avoidKeptGroups` settings: their own file, so spec.ts need not load the loop (kept-groups.ts), which loads the engine's types, which name the spec's. */
export interface KeptGroupsSpec {
  /** Groups of the kept text (inspect --groups). */
  groups: number;
  /**
   * Who picks the groups to avoid: 'labels', the mix's labels playing a user who recognises what
   * is not theirs (a group at least `outOfDomain` out of domain); 'offered', a user who applies
   * every `--avoid` the `inspect --task` report offers (inspect/groups.ts offersAvoid).
   */
  pick?: KeptGroupsPicker;
  /** A group is avoided when at least this share of its characters is out of domain. */
  outOfDomain: number;
  /** Sentences drawn from the avoided groups (fit --avoid). */
  sentences: number;
  /** Groups for the task-like pieces (groupText's likeGroups; default half of groups). */
  likeGroups?: number;
}

export const KEPT_GROUPS_PICKERS = ['labels', 'offered'] as const;
export type KeptGroupsPicker = (typeof KEPT_GROUPS_PICKERS)[number];

export const KEPT_GROUPS_DEFAULTS: KeptGroupsSpec = { groups: 12, outOfDomain: 0.75, sentences: 200 };
