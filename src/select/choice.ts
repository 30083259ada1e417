/**
 * What the default's held-out measure (auto.ts, chooseCandidate) takes and gives, as plain
 * data: a FitContext can name a ChooseAside that runs it on another thread.
 */
export interface CandidateFigure {
  name: string;
  /** Held-out AUROC: P(a held-out corpus sentence scores above a held-out task sentence). */
  auroc: number;
  /**
   * The share of held-out corpus sentences that score more task-like than the median held-out
   * task sentence: where in the corpus the task's own text ranks. Absent in older models.
   */
  taskMedianRank?: number;
}

export interface AutoChoice {
  chosen: string;
  candidates: CandidateFigure[];
  heldOutTask: number;
  heldOutGeneral: number;
  /** Set when the best AUROC is below AUTO_DEFAULTS.warnBelow: the text of the warning. */
  warning?: string;
}

/** What the held-out measure needs, as plain data: another thread can take it (ChooseAside). */
export interface ChoiceJob {
  task: string[];
  general: string[];
  seed: number;
  candidates: string[];
  holdout: number;
}

/** Runs auto's chooseCandidate elsewhere (threads/choice-thread.ts: on a thread of its own). */
export type ChooseAside = (job: ChoiceJob) => Promise<AutoChoice>;
