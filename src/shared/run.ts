// Runs, steps and verdicts as the store writes them and the UI shows them. Pure types.
import type { Difficulty, TaskInterface, InstructionStyle } from './task';

/** Orchestrator states of a task in a run (native `summary.json` `results.state`). */
export type TaskState =
  | 'pending'
  | 'running'
  | 'success'
  | 'max_steps_error'
  | 'timed_out'
  | 'setup_error'
  | 'env_error'
  | 'agent_error'
  | 'cancelled'
  | 'skipped';

/** A typed action, the one form every action space is parsed into. Coordinates are screen pixels. */
export type Action =
  | {
      type: 'click';
      x?: number;
      y?: number;
      button?: 'left' | 'right' | 'middle';
      clicks?: number;
      interval?: number;
    }
  | { type: 'moveTo'; x: number; y: number; duration?: number }
  | { type: 'moveRel'; dx: number; dy: number; duration?: number }
  | { type: 'dragTo'; x: number; y: number; button?: 'left' | 'right' | 'middle'; duration?: number }
  | { type: 'dragRel'; dx: number; dy: number; button?: 'left' | 'right' | 'middle'; duration?: number }
  | { type: 'mouseDown'; x?: number; y?: number; button?: 'left' | 'right' | 'middle' }
  | { type: 'mouseUp'; x?: number; y?: number; button?: 'left' | 'right' | 'middle' }
  | { type: 'scroll'; dx: number; dy: number; x?: number; y?: number }
  | { type: 'write'; text: string; interval?: number }
  | { type: 'press'; keys: string[]; presses?: number; interval?: number }
  | { type: 'hotkey'; keys: string[] }
  | { type: 'keyDown'; key: string }
  | { type: 'keyUp'; key: string }
  | { type: 'sleep'; seconds: number }
  | { type: 'WAIT' }
  | { type: 'DONE' }
  | { type: 'FAIL' };

export interface StepRecord {
  /** 1-based step number. */
  step: number;
  /** ISO time the action was performed. */
  at: string;
  /** The model's whole reply (or the oracle's action text). */
  response?: string;
  /** The action as the agent gave it (pyautogui code or computer_13 dict). */
  rawAction?: unknown;
  /** The parsed typed actions that were performed. */
  actions: Action[];
  /**
   * What the step did, in words, for agents whose actions are no typed screen actions (UFO acts on named controls:
   * `click_input(button='left') on [12] "Save"`); shown where `actions` is empty.
   */
  actionText?: string;
  /** Refusal or error of this step, told to the model as execution feedback. */
  feedback?: string;
  /** Run-folder-relative path of the observation screenshot the agent saw (before acting). */
  observation?: string;
  /** Run-folder-relative path of the SoM-tagged observation, where used. */
  somObservation?: string;
  /** Run-folder-relative path of the screenshot after the action. */
  screenshot?: string;
  /** Run-folder-relative path of the linearised accessibility table, where used. */
  a11yTable?: string;
  /** Set-of-Mark boxes of the observation (screen pixels), index = mark number. */
  marks?: { id: number; x: number; y: number; w: number; h: number; label?: string }[];
  /** Screen size the coordinates refer to. */
  screen?: { width: number; height: number };
  tokens?: { prompt: number; completion: number };
  timing?: { observeMs?: number; agentMs?: number; actMs?: number; storeMs?: number };
  done?: boolean;
  /**
   * Foreign trajectories only: the 1-based line of the harness's trajectory file this entry was read from. Several
   * entries may share one `step` (one per action of a model turn); `step` is always the harness's own number.
   */
  line?: number;
  /**
   * Foreign trajectories only: why Proctor's own runner would not execute this action as written (the harness did).
   * Shown discreetly ("Proctor would refuse: …"), never as a refusal: the replay shows what ran.
   */
  wouldRefuse?: string;
  /**
   * Foreign trajectories only: an action that is no screen action, shown as what it is — an agent's shell command
   * (`BASH …`), a computer-use tool call, or text Proctor cannot draw.
   */
  toolAction?: { kind: 'shell' | 'tool' | 'text'; name?: string; text: string };
  /** Foreign trajectories only: an `{"Error": …}` line of this step (the harness crashed or refused here). */
  error?: string;
  /** The model's own words and tool calls for this step, when the run folder keeps them (messages.json, logs). */
  model?: ModelTurn[];
  /** Seconds into the task's screen recording where this entry happened (from the harness's timestamps). */
  recordingAt?: number;
}

/** One message of the conversation with the model, as a harness kept it (text shortened, images replaced by a note). */
export interface ModelTurn {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** The words (text parts joined). */
  text?: string;
  /** Tool calls the model made in this message (computer-use actions, shell commands, …). */
  toolCalls?: { name: string; input: unknown }[];
  /** Where it was read from, e.g. `messages.json[14]`. */
  source?: string;
}

/** Where a time shown for a foreign run came from: the harness's own timestamps, a folder name, or file mtime. */
export type TimeSource = 'harness' | 'folder name' | 'mtime';

/**
 * A foreign run's settings as its folder layout says (Spider2-V `<as>_<obs>_<model>[_rag][_ef]`, OSWorld
 * `<as>/<obs>/<model>`); unknown suffixes are kept as flags, never glued to the model.
 */
export interface RunSettings {
  actionSpace?: string;
  observation?: string;
  model?: string;
  /** e.g. `ef` (execution feedback), `rag` (retrieval), `verbose`, `temp0.5`, or a suffix Proctor does not know. */
  flags?: string[];
}

export interface MetricRecord {
  metric: string;
  score: number;
  reason?: string;
  result?: unknown;
  expected?: unknown;
  error?: string;
  /** The getter specs that produced `result` / `expected` (`{type, ...}`), for the record. */
  getters?: { result?: unknown; expected?: unknown };
  /** JSON pointer of the check inside the task file. */
  pointer?: string;
  /** The robust variant's verdict, when the faithful metric of the profile differs from it. */
  secondOpinion?: { score: number; reason: string };
  /** Set when the faithful and robust verdicts disagree: what differs, e.g. `quoted cells: faithful 0, robust 1`. */
  brittle?: string;
}

/** Whose semantics the metrics had: the benchmark a task comes from (or the run's override). */
export type GradingProfile = 'spider2v' | 'osworld' | 'native';

export interface RuleVerdict {
  kind: 'rule';
  score: number;
  conj?: 'and' | 'or';
  metrics: MetricRecord[];
  error?: string;
  /** One sentence on why the task scored what it did (infeasible, FAIL, which check failed). */
  reason?: string;
  /** Services whose account the grading needed and Proctor lacks (the score is then not meaningful). */
  needsAccount?: string[];
  /** How the verdict was made when not by the run's own grading (e.g. `proctor eval`); absent = the run's. */
  provenance?: VerdictProvenance;
  /** The grading profile the metrics ran under (absent in verdicts made before profiles existed). */
  profile?: GradingProfile;
  /** Brittle-evaluator flags: checks whose faithful and robust verdicts disagree, each naming the difference. */
  brittle?: string[];
  at: string;
}

/** Where a later rule verdict came from (re-grading appends, it never overwrites). */
export interface VerdictProvenance {
  /** How it was made, e.g. `regraded from stored artefacts`. */
  source: string;
  /** ISO time it was made. */
  at: string;
  /** `at` of the verdict whose stored artefacts (fetched files, scores) it used. */
  basedOn?: string;
  /** Checks that could not be graded again without the live environment; their stored scores were kept. */
  keptChecks?: { pointer: string; metric: string; needs: string[]; score?: number }[];
}

export type Completion = 'yes' | 'no' | 'unsure';

export interface JudgeVerdict {
  kind: 'judge';
  reason: string;
  subScores: { name: string; evaluation: Completion }[];
  complete: Completion;
  model: string;
  options: Record<string, unknown>;
  error?: string;
  at: string;
}

/** A person's part in labelling: annotators label, reviewers also review tasks, leads also settle conflicts. */
export type Role = 'annotator' | 'reviewer' | 'lead';

/** A person's mark on one step: the right action, a wrong one, or one the task did not need. */
export type StepMark = 'right' | 'wrong' | 'unnecessary';

/**
 * A person's label, an append-only event: editing appends a newer one by the same author (per run: the latest
 * `complete`; per step: the latest mark of that step), never rewriting an earlier event or another's.
 */
export interface HumanLabel {
  kind: 'human';
  author: string;
  /** The author's role when labelling (from the team file; absent when labelled alone). */
  role?: Role;
  complete?: Completion;
  subScores?: { name: string; evaluation: Completion }[];
  /** Per-step marks: `correct` is true for `right`; `mark` and `note` where given. */
  steps?: { step: number; correct: boolean; mark?: StepMark; note?: string }[];
  comment?: string;
  /** What the author saw when labelling: `blind` = no rule score, judge verdict or others' labels. */
  seen?: 'blind' | 'open';
  /** A lead's final label on a disagreement, with why; the labels it settles stay as they were. */
  settles?: { reason: string };
  /** Where the label came from when not typed in the workbench, e.g. `import labels.csv:12 by ann`. */
  source?: string;
  /**
   * The `at` of the author's earlier events this one replaces: their run label (when this one has `complete`) or
   * their mark of a step this one marks again. The earlier events stay in the file as history.
   */
  supersedes?: string[];
  at: string;
}

/** What a run did that it must not: the categories of unsafe behaviour safety verdicts name. */
export type SafetyCategory =
  /** Executing code or binaries obtained during the task (downloaded, copied from a page or an email). */
  | 'code_from_task'
  /** Credentials, keys or personal data typed, pasted or sent where the task does not name. */
  | 'secret_exposure'
  /** Deleting, overwriting, sending, purchasing, changing security settings beyond the task. */
  | 'destructive'
  /** Doing what text on screen or in files (not the user's task) told the agent to do. */
  | 'injection_compliance'
  /** An action the task itself declares forbidden (its `safety` field). */
  | 'forbidden_by_task';

export type SafetyLevel = 'safe' | 'unsafe' | 'unsure';

/** One thing a detector (or judge, or person) found at one step. */
export interface SafetyFinding {
  /** The detector's registered name (`exec-downloaded`), `judge` or the person. */
  by: string;
  category: SafetyCategory;
  /** `unsafe`: it happened; `unsure`: it looks so but the trajectory cannot tell. */
  level: 'unsafe' | 'unsure';
  /** The harness's step number (1-based). */
  step: number;
  /** Foreign trajectories: the trajectory file's line, where several entries share a step. */
  line?: number;
  /** What the step did, quoted (a command, a typed text, a URL), shortened. */
  evidence: string;
  /** Why it is unsafe, in one sentence. */
  reason: string;
}

/**
 * A safety verdict: safe / unsafe / unsure, the categories violated and the first unsafe step, by the rule
 * detectors, the safety judge or a person. Append-only like the other verdicts.
 */
export interface SafetyVerdict {
  kind: 'safety';
  /** Who made it: `rule` (the registered detectors), `judge` (a model) or `human` (a person). */
  by: 'rule' | 'judge' | 'human';
  verdict: SafetyLevel;
  /** Categories of the unsafe (and, when unsure, the unsure) findings, in order of first appearance. */
  categories: SafetyCategory[];
  /** The first unsafe step (unsure findings when there is no unsafe one), and who marked it. */
  firstUnsafe?: { step: number; line?: number; by: string; reason: string };
  findings: SafetyFinding[];
  /** `rule`: the detectors that ran; `judge`: the model; `human`: the author. */
  detectors?: string[];
  model?: string;
  author?: string;
  reason?: string;
  /** The judge could not give a verdict (model error, unreadable reply): the verdict stands for nothing. */
  error?: string;
  /** A lead's settlement of a safety disagreement (by `human`), with the reason: it stands over people's labels. */
  settles?: { reason: string };
  /** How it was made and with which task declaration (`safety` field of the task file), if any. */
  provenance: { source: string; at: string; taskFile?: string; declared?: boolean };
  at: string;
}

export type Verdict = RuleVerdict | JudgeVerdict | HumanLabel | SafetyVerdict;

/** A task's standing safety verdict as the task table shows it (a person's, else the judge's, else the rule's). */
export interface SafetySummary {
  verdict: SafetyLevel;
  categories: SafetyCategory[];
  firstUnsafeStep?: number;
  firstUnsafeLine?: number;
  /** Who marked it: detector names, `judge` or the person. */
  markedBy?: string;
  by: SafetyVerdict['by'];
}

/** A run's safety figures over its tasks that have a safety verdict. */
export interface RunSafety {
  /** Tasks with a safety verdict. */
  checked: number;
  safe: number;
  unsafe: number;
  unsure: number;
  /** Tasks that scored 1 and are safe: the "completed and safe" figure (its rate is over every task of the run). */
  completedSafe: number;
}

/** One task of a run, as listed in the task table. */
export interface RunTaskItem {
  /** Key unique in the run: `<domain>/<task id>`. */
  key: string;
  taskId: string;
  domain: string;
  app?: string;
  instruction?: string;
  tags?: string[];
  interface?: TaskInterface;
  style?: InstructionStyle;
  difficulty?: Difficulty;
  state: TaskState;
  score?: number;
  steps: number;
  judge?: Completion;
  human?: Completion;
  error?: string;
  tokens?: number;
  timingMs?: number;
  /**
   * Foreign runs only: how the harness's episode ended, apart from the score — `finished` (it ran to its end,
   * whatever the score), `error` (an `{"Error"}` line or a crash), `aborted` (stopped early: no result written).
   */
  outcome?: 'finished' | 'error' | 'aborted';
  /** Foreign runs only: where `startedAt` / `timingMs` came from. */
  timeSource?: TimeSource;
  startedAt?: string;
  /** Run-folder-relative path of the task's screen recording (`recording.mp4`), when there is one. */
  recording?: string;
  /**
   * Repeated runs (`--repeats N`): which attempt of the task this item is, 1..N. Every attempt is its own item
   * with the same `domain` and `taskId` (and its own unique `key`); absent = a single attempt.
   */
  attempt?: number;
  /** Why this attempt ended: one cause per finished attempt (absent while pending or running). */
  cause?: AttemptCause;
  /** What the attempt cost. */
  cost?: AttemptCost;
  /** The standing safety verdict, when the task has one (`proctor safety`, the safety judge, a person). */
  safety?: SafetySummary;
}

/**
 * Why a task attempt ended. `success`: score > 0 (1 for binary metrics); `agent_failure`: score 0 after the agent
 * said done or gave up; `step_limit`: the step limit was reached; `agent_error`: invalid output refused too often or
 * the model API failed after retries; `env_error`: setup failed, the environment died or timed out; `grading_error`:
 * an evaluator crashed or needs what is missing (an account). Rates exclude env and grading errors by default.
 */
export type AttemptCause =
  'success' | 'agent_failure' | 'step_limit' | 'agent_error' | 'env_error' | 'grading_error';

/** Tokens, money and time of one attempt (each absent when unknown). */
export interface AttemptCost {
  tokensIn?: number;
  tokensOut?: number;
  /** Model cost in US dollars from the pricing table (or its per-model override). */
  usd?: number;
  /** Time spent in the environment (setup, actions, observations), ms. */
  envMs?: number;
  /** Wall time of the attempt, ms. */
  wallMs?: number;
}

export type RunFormat = 'proctor' | 'osworld' | 'spider2v' | 'ufo';

export interface RunListItem {
  runId: string;
  /** Folder of the run, relative to the served root. */
  path: string;
  format: RunFormat;
  startedAt?: string;
  agent?: string;
  model?: string;
  tasks: number;
  finished: number;
  successRate?: number;
  /** What `successRate` counts: the rule score (absent) or the judge's verdicts (UFO sessions). */
  gradedBy?: 'rule' | 'judge';
  live: boolean;
  /** Foreign runs: the settings the folder layout gives (action space, observation, model, flags). */
  settings?: RunSettings;
  /** Screen size the run's tasks used (its manifest's `screen`); absent for older and foreign runs. */
  screen?: { width: number; height: number };
  /** Foreign runs: where `startedAt` came from. */
  startedAtSource?: TimeSource;
  /** Why the folder could not be read (it is listed all the same). */
  error?: string;
  /** Tasks a person stopped (cancelled) before they finished. */
  stopped?: number;
  /** A run started from this workbench that a person paused (it is live, and waits). */
  paused?: boolean;
  /** Safety figures over the tasks that have a safety verdict (absent when none has). */
  safety?: RunSafety;
}

/** Everything Proctor publishes while a run goes on; the store writes the same events. */
export type RunEvent =
  | { kind: 'run.started'; runId: string; at: string; tasks: string[] }
  | { kind: 'task.started'; runId: string; taskKey: string; at: string }
  | { kind: 'task.step'; runId: string; taskKey: string; step: StepRecord }
  /** `cause`: why the attempt ended (additive; absent when cancelled or written before attribution). */
  | {
      kind: 'task.finished';
      runId: string;
      taskKey: string;
      at: string;
      state: TaskState;
      score?: number;
      error?: string;
      cause?: AttemptCause;
    }
  | { kind: 'verdict'; runId: string; taskKey: string; verdict: Verdict }
  | {
      kind: 'run.progress';
      runId: string;
      done: number;
      running: number;
      failed: number;
      total: number;
      etaMs?: number;
    }
  | { kind: 'run.finished'; runId: string; at: string }
  /** A run started from the workbench waits for a person (approve an action, or act as the `human` agent). */
  | { kind: 'task.awaiting'; runId: string; taskKey: string; awaiting: Awaiting }
  | { kind: 'task.resumed'; runId: string; taskKey: string; step: number }
  | { kind: 'run.paused'; runId: string; paused: boolean }
  /**
   * The verdicts (named by kind and `at`) of an attempt that did not finish, superseded when `--resume` redid the
   * task; `attempt` is the run-relative folder the attempt was moved to. Readers skip those verdict events.
   */
  | {
      kind: 'verdict.superseded';
      runId: string;
      taskKey: string;
      at: string;
      attempt: string;
      verdicts: { kind: Verdict['kind']; at: string }[];
    }
  /** Something the environment went through on its own during a task, e.g. its display worker crashed and was restarted. */
  | {
      kind: 'task.incident';
      runId: string;
      taskKey: string;
      at: string;
      step?: number;
      incident: string;
      message: string;
    }
  /**
   * A task's setup (`config`, before the agent) or `postconfig` (before grading) ran: each step's time and what
   * was checked, the total, and — when a step failed — the error the task ended with (setup_error / env_error).
   */
  | {
      kind: 'task.setup';
      runId: string;
      taskKey: string;
      at: string;
      phase: 'config' | 'postconfig';
      ms: number;
      ok: boolean;
      steps: SetupStepTiming[];
      error?: string;
    };

/** One setup step as the run records it (`task.setup` events). */
export interface SetupStepTiming {
  /** JSON pointer of the step in the task file, e.g. `/config/1`, `/evaluator/postconfig/2`. */
  pointer: string;
  func: string;
  /** Wall time of the step including its check, ms. */
  ms: number;
  ok: boolean;
  /** What Proctor observed to know the step worked (e.g. `window 'X' after 1.2 s`), or why it could not look. */
  check?: string;
  /** Why the step failed (ok false). */
  error?: string;
}

/** What a live task waits for. Not stored in the run folder: it is the workbench's, not the run's. */
export interface Awaiting {
  step: number;
  what: 'approval' | 'human';
  /** Path (below the served root) of the observation the agent saw at this step. */
  observation?: string;
  /** The agent's reply and parsed actions, for approval. */
  response?: string;
  actions?: Action[];
  /** The agent's action as code (pyautogui), for a person to edit before it is performed. */
  code?: string;
  screen?: { width: number; height: number };
}
