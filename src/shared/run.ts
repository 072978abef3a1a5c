// Runs, steps and verdicts as the store writes them and the UI shows them. Pure types.
import type { Difficulty, TaskInterface, InstructionStyle } from './task';
import type { StepAction, StoredStep } from './generated/run-step';
import type { StoredRunEvent, StoredAwaiting, TaskState } from './generated/run-event';
import type { Completion, SafetyCategory, SafetyLevel, SafetyVerdict } from './generated/run-verdict';
import type { AttemptCause, AttemptCost } from './generated/summary';

// The stored records' types come from resources/schemas (npm run gen:types writes src/shared/generated).
export type { TaskState, SetupStepTiming } from './generated/run-event';
export type {
  Verdict,
  RuleVerdict,
  JudgeVerdict,
  HumanLabel,
  SafetyVerdict,
  SafetyFinding,
  SafetyCategory,
  SafetyLevel,
  MetricRecord,
  VerdictProvenance,
  GradingProfile,
  Completion,
  Role,
  StepMark,
} from './generated/run-verdict';
export type { AttemptCause, AttemptCost } from './generated/summary';

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

/** Every field of a typed action is one the step schema names (tsc fails here on a field the schema lacks). */
type KeysOf<T> = T extends unknown ? keyof T : never;
type Assert<T extends true> = T;
export type ActionMatchesStepSchema =
  | Assert<[Exclude<KeysOf<Action>, KeysOf<StepAction>>] extends [never] ? true : false>
  | Assert<[Exclude<StepAction['type'], Action['type']>] extends [never] ? true : false>
  | Assert<[Action] extends [StepAction] ? true : false>;

/**
 * A step as readers show it: a line of steps.jsonl (StoredStep, resources/schemas/run-step.schema.json) with the
 * precise action union, plus fields only readers of foreign trajectories fill (never written by Proctor's runner).
 */
export interface StepRecord extends Omit<StoredStep, 'actions'> {
  /** The parsed typed actions that were performed. */
  actions: Action[];
  /**
   * What the step did, in words, for agents whose actions are no typed screen actions (UFO acts on named controls:
   * `click_input(button='left') on [12] "Save"`); shown where `actions` is empty.
   */
  actionText?: string;
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

/**
 * Everything Proctor publishes while a run goes on; the store writes the same events (StoredRunEvent,
 * resources/schemas/run-event.schema.json), live ones carry a StepRecord and the full Awaiting.
 */
export type RunEvent =
  | Exclude<StoredRunEvent, { kind: 'task.step' | 'task.awaiting' }>
  | { kind: 'task.step'; runId: string; taskKey: string; step: StepRecord }
  /** A run started from the workbench waits for a person (approve an action, or act as the `human` agent). */
  | { kind: 'task.awaiting'; runId: string; taskKey: string; awaiting: Awaiting };

/** What a live task waits for. Not stored in the run folder: it is the workbench's, not the run's. */
export interface Awaiting extends StoredAwaiting {
  /** Path (below the served root) of the observation the agent saw at this step. */
  observation?: string;
  /** The agent's reply and parsed actions, for approval. */
  response?: string;
  actions?: Action[];
  /** The agent's action as code (pyautogui), for a person to edit before it is performed. */
  code?: string;
  screen?: { width: number; height: number };
}
