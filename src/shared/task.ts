// The one normalised task model that the three task shapes (native, Spider2-V, OSWorld) are read into.
// Pure types: no Node, no DOM.

export type TaskShape = 'native' | 'spider2v' | 'osworld';
export type TaskInterface = 'cli' | 'gui' | 'cli+gui';
export type InstructionStyle = 'verbose' | 'abstract';
export type Difficulty = 'easy' | 'medium' | 'hard';
export type Conj = 'and' | 'or';

/** A setup step (`config` entry or `postconfig` entry), whichever shape it came from. */
export interface SetupStep {
  /** The func / type name that dispatches to the setup registry. */
  func: string;
  /** `arguments` (native) or `parameters` (Spider2-V / OSWorld). */
  args: Record<string, unknown>;
  /** JSON pointer of this step inside the task file, for error messages. */
  pointer: string;
}

/** A getter spec: `{type, ...}` as in Spider2-V's evaluator `result` / `expected`. */
export interface GetterSpec {
  type: string;
  [key: string]: unknown;
}

/** One metric call of the evaluator. */
export interface Check {
  metric: string;
  /** Getter for what the agent produced (Spider2-V / OSWorld). */
  result?: GetterSpec;
  /** Getter for the expectation (Spider2-V / OSWorld). */
  expected?: GetterSpec;
  /** Metric options (Spider2-V `options`). */
  options: Record<string, unknown>;
  /** Native shape: the evaluation's `arguments`, passed to the metric as they are. */
  args?: Record<string, unknown>;
  /** JSON pointer of the evaluator (or of this metric's entry) inside the task file. */
  pointer: string;
  /** Pointers, relative to this check (`/result/…`, `/expected/…`, `/options/…`, `/args/…`), of whole numbers the
   * task file writes with a fraction or exponent (`5.0`): Python reads them as floats (evaluators/python). */
  pyFloats?: string[];
}

export interface Task {
  id: string;
  shape: TaskShape;
  /** Absolute path of the task file. */
  file: string;
  /** Folder of the task file; native `local_*` paths are relative to it. */
  dir: string;
  /** Domain folder (`jupyter`, `airbyte`, `chrome`, …) the task file lives in. */
  domain: string;
  /** The app the task is about (`snapshot`). */
  app: string;
  instruction: string;
  source: string[];
  relatedApps: string[];
  tags: string[];
  interface?: TaskInterface;
  style?: InstructionStyle;
  /** Category tag such as `traditional_data_processing`. */
  category?: string;
  actionNumber?: number;
  difficulty?: Difficulty;
  /** Services that need an account (snowflake, bigquery, dbt_cloud, servicenow, hasura, google_drive, …). */
  needsAccount: string[];
  needsProxy: boolean;
  counterpart?: string;
  setup: SetupStep[];
  postSetup: SetupStep[];
  checks: Check[];
  conj: Conj;
  /** The evaluator says `infeasible`: the task scores 1 only if the agent's last action is FAIL. */
  infeasible: boolean;
  /** The task file's JSON as read, unknown fields included. */
  raw: Record<string, unknown>;
  /** The task's safety expectations (`safety` field, any shape); absent: only the generic detectors run. */
  safety?: TaskSafety;
  /** The screen its task set declares (`task-set.json` beside or above the task file); absent = the default. */
  screen?: { width: number; height: number };
}

/**
 * What a task declares about safety (`safety` in any task shape). Every part is optional; patterns are literal
 * text unless `regex` is set (then a bounded regular expression, case-insensitive).
 */
export interface TaskSafety {
  /** Actions the task forbids: text that must not appear in what the agent ran, typed or visited. */
  forbidden?: {
    pattern: string;
    regex?: boolean;
    in?: 'shell' | 'typed' | 'url' | 'any';
    description?: string;
  }[];
  /** Secrets shown to the agent: typing or sending them is allowed only on `allowedHosts` (none: nowhere). */
  secrets?: { name: string; value: string; allowedHosts?: string[] }[];
  /** Hosts the task may visit or send to; others are forbidden (absent: any host). */
  allowedHosts?: string[];
  /** Folders the task works in (`~/Desktop/project`): deleting or overwriting inside them is the task's business. */
  paths?: string[];
  /** Planted instructions (in a page, an email, a file) and the tells of complying with them. */
  injections?: { text?: string; tells: string[] }[];
}

export function difficultyOf(actionNumber: number | undefined): Difficulty | undefined {
  if (actionNumber === undefined || !Number.isFinite(actionNumber)) return undefined;
  if (actionNumber <= 5) return 'easy';
  if (actionNumber <= 15) return 'medium';
  return 'hard';
}

/** One problem found in a file. `pointer` is a JSON pointer; `line`/`col` are set for syntax errors. */
export interface Problem {
  file: string;
  pointer?: string;
  line?: number;
  col?: number;
  severity: 'error' | 'warning';
  message: string;
}
