// The one contract between the UI and the engine. Both transports (Electron IPC, HTTP + WebSocket) carry
// exactly these methods and events; the renderer sees only `ProctorClient`. Pure: no Node, no DOM.
import type { RunQueueView } from './queue';
import type { PairedComparison, RunStats } from './run-stats';
import type { Problem, Task } from './task';
import type {
  Awaiting,
  Completion,
  Role,
  RunEvent,
  RunListItem,
  RunTaskItem,
  SafetyCategory,
  SafetyLevel,
  StepMark,
  StepRecord,
  Verdict,
} from './run';
import { ACTION_SPACES, OBSERVATION_TYPES, type ActionSpace, type ObservationType } from './spaces';
import {
  array,
  boolean,
  integer,
  object,
  oneOf,
  returns,
  someOf,
  string,
  type Infer,
  type Returns,
  type ReturnOf,
  type Schema,
} from './json-schema';
import type { AgreementReport, Caller, Conflict, WorkQueue } from './annotate';

export interface AppInfo {
  name: 'proctor';
  version: string;
  /** The folder the engine serves (tasks and runs are found below it). */
  root: string;
  transport: 'ipc' | 'http' | 'static';
  /** Task sets a run can be started on besides the served folder (the bundled demo by app, `--tasks` folders). */
  taskSources?: { path: string; label: string }[];
  /** The agents a run can be started with here, as their registry declares them. */
  agents?: { name: string; about: string; holdsSecrets: boolean }[];
  /** The environment kinds a run can use here, with what they can do, as their registry declares them. */
  environments?: {
    kind: string;
    summary: string;
    capabilities: {
      /** What each environment has: screenshot, input, accessibility, shell, files, launch, windows, browser. */
      provides: string[];
      runsOn: 'this-machine' | 'other-machine';
      observations: ObservationType[];
      actionSpaces: ActionSpace[];
    };
  }[];
}

/** A task as listed in the task browser: the model without its raw JSON. */
export type TaskSummary = Omit<Task, 'raw' | 'file' | 'dir'> & {
  /** Path of the task file relative to the served root. */
  path: string;
  problems: Problem[];
};

export interface TaskFolderView {
  /** Folder relative to the served root. */
  path: string;
  tasks: TaskSummary[];
  /** Problems of files that are not tasks or could not be read. */
  problems: Problem[];
}

export interface TaskDetail {
  task: TaskSummary;
  raw: unknown;
  verboseInstruction?: string;
}

export interface RunDetail {
  run: RunListItem;
  manifest?: Record<string, unknown>;
  tasks: RunTaskItem[];
  /** Problems met while reading the folder (unreadable lines, oversize images, …). */
  problems: Problem[];
}

export interface TaskTrajectory {
  runId: string;
  taskKey: string;
  item: RunTaskItem;
  steps: StepRecord[];
  verdicts: Verdict[];
  /** The caller labels this task blind: score, judge verdict and others' labels are withheld until they label it. */
  blind?: boolean;
  /** The task's instruction and metadata when known. */
  task?: Partial<TaskSummary>;
  problems: Problem[];
}

/** A run as the side-by-side view names it: its folder below the served root, and who ran it. */
export interface ComparedRun {
  /** Folder relative to the served root, as runs.list gives it. */
  path: string;
  agent?: string;
  model?: string;
}

/** Two to four runs of one task, side by side. */
export interface TaskComparison {
  taskKey: string;
  /** The trajectories, in the order the runs were asked for (file paths relative to the served root). */
  runs: (TaskTrajectory & { run: ComparedRun })[];
  /** First step where a run's actions differ from the first run's (or one run has ended). */
  actionDivergence?: number;
}

/** How each run's screens differ from the first run's, step by step (computed on the engine, cached). */
export interface StepDifferences {
  /**
   * `diffs[r][i]`: run r+2 against run 1 at step i+1, the share (0..1) of a downscaled grayscale copy of the two
   * observations whose brightness differs by more than 1/16; null where either step has no screenshot.
   */
  diffs: (number | null)[][];
  /** A step whose difference exceeds this counts as a divergence. */
  threshold: number;
  /** First step whose screens differ by more than the threshold. */
  screenDivergence?: number;
}

/** A run's task as a demonstration: a person's run (`human`) can be accepted as the task's oracle (`--agent demo`). */
export interface DemonstrationView {
  runId: string;
  taskKey: string;
  /** Whether the run is a person's (agent human): only those can be reviewed as demonstrations. */
  byPerson: boolean;
  /** The latest verdict; absent before any review. */
  status?: 'accepted' | 'rejected';
  /** The rule score of the person's run (what the task's checker said of it); absent when ungraded. */
  score?: number;
  reviews: DemonstrationReviewView[];
}

export interface DemonstrationReviewView {
  runId: string;
  taskKey: string;
  verdict: 'accepted' | 'rejected';
  reason: string;
  author: string;
  role?: string;
  at: string;
}

export interface TaskReviewView {
  task: string;
  status: 'draft' | 'in review' | 'accepted' | 'rejected' | 'disputed';
  reviewers: { person: string; outcome: 'pass' | 'fail' | 'unsure'; at: string }[];
  reviews: {
    author: string;
    role?: string;
    checks: Record<string, { verdict: string; note?: string }>;
    at: string;
  }[];
  /** What Proctor computed for checks c–e (latest per check); it pre-fills the checklist, people decide. */
  evidence: {
    check: 'c' | 'd' | 'e';
    verdict: 'pass' | 'fail' | 'unsure';
    note: string;
    source: string;
    at: string;
  }[];
  /** Accepted demonstrations of the task (people's runs a lead accepted) below the served folder, latest first. */
  demonstrations?: DemonstrationReviewView[];
}

const completions = ['yes', 'no', 'unsure'] as const satisfies readonly Completion[];
const stepMarks = ['right', 'wrong', 'unnecessary'] as const satisfies readonly StepMark[];
const safetyLevels = ['safe', 'unsafe', 'unsure'] as const satisfies readonly SafetyLevel[];
const safetyCategories = [
  'code_from_task',
  'secret_exposure',
  'destructive',
  'injection_compliance',
  'forbidden_by_task',
] as const satisfies readonly SafetyCategory[];
const runIds = (maxItems: number) => array(string(), { minItems: 2, maxItems });

const startRunParams = object(
  {
    tasks: array(string(), { minItems: 1, maxItems: 10000 }),
    agent: string(),
    model: string(),
    baseUrl: string(),
    observation: oneOf(OBSERVATION_TYPES),
    actionSpace: oneOf(ACTION_SPACES),
    /** Environment spec: `local` (default), `local:1280x800`, `osworld://host:5000`, … */
    env: string({ minLength: 1, maxLength: 2048 }),
    parallel: integer({ minimum: 1, maximum: 64 }),
    maxSteps: integer({ minimum: 1, maximum: 1000 }),
    approveEachAction: boolean(),
    /** Safety detectors check each proposed step: one that fires is not performed and the run pauses for a person. */
    stopOnUnsafe: boolean(),
    /** Attempts per task, each in a fresh environment (like `proctor run --repeats N`); default 1. */
    repeats: integer({ minimum: 1, maximum: 100 }),
  },
  ['tasks', 'agent'],
);
/** What the workbench's start form sends: the tasks, the agent and the run's settings. */
export type StartRunParams = Infer<typeof startRunParams>;

const labelInput = object({
  author: string({ minLength: 1, maxLength: 200 }),
  complete: oneOf(completions),
  subScores: array(object({ name: string(), evaluation: oneOf(completions) }, ['name', 'evaluation'])),
  steps: array(
    object(
      {
        step: integer({ minimum: 1 }),
        correct: boolean(),
        mark: oneOf(stepMarks),
        note: string({ maxLength: 4000 }),
      },
      ['step'],
    ),
    { maxItems: 1000 },
  ),
  comment: string({ maxLength: 20000 }),
  /** A safety label: safe / unsafe / unsure, the categories and the first unsafe step (stored as a person's safety verdict). */
  safety: object(
    {
      verdict: oneOf(safetyLevels),
      categories: array(oneOf(safetyCategories), { maxItems: 5 }),
      step: integer({ minimum: 1 }),
      reason: string({ maxLength: 4000 }),
    },
    ['verdict'],
  ),
});
/** What the UI sends for a label: the engine adds the author, role, what the person saw, and the time. */
export type LabelInput = Infer<typeof labelInput>;

/**
 * What a method's answer can carry that not every caller may see: `grades` (rule scores, judge verdicts, success
 * rates), `othersLabels` (other people's human labels), `secrets` (keys, tokens), `hostPaths` (paths on the
 * engine's machine: the workbench answers with paths relative to the served root).
 */
export type Reveal = 'grades' | 'othersLabels' | 'secrets' | 'hostPaths';

/** Who may call a method, and what its answer may reveal. The dispatcher (src/main/workbench/dispatch.ts) enforces it. */
export interface MethodPolicy {
  reveals: readonly Reveal[];
  /** The roles that may call it; another role of a team is refused (403). Proctor used alone: its user is a lead. */
  roles: readonly Role[];
  /** What a refused caller may not do, in their error ("settle a conflict"). */
  does?: string;
}

/** A method, declared once: the JSON Schema of its params (their type follows), its result's type, its policy. */
export interface MethodDeclaration extends MethodPolicy {
  params: Schema<unknown>;
  result: Returns<unknown>;
}

const everyone = ['annotator', 'reviewer', 'lead'] as const;
const runTask = object({ runId: string(), taskKey: string() }, ['runId', 'taskKey']);
const runOnly = object({ runId: string() }, ['runId']);
const ok = returns<{ ok: boolean }>();

/**
 * Every request method in one table: its params (a JSON Schema both transports validate payloads against before
 * dispatch, and the params' type), its result, and its policy — who may call it and what its answer may reveal.
 * Adding a method is one entry here (and its handler: a missing handler does not compile). A blind annotator (one
 * who has not labelled the item yet) is refused a method not open to annotators, and given the answer of one that
 * reveals grades or others' labels with those withheld; a method revealing secrets is refused to every person of a team.
 */
export const methods = {
  'app.info': { params: object({}), result: returns<AppInfo>(), reveals: ['hostPaths'], roles: everyone },
  'tasks.open': {
    params: object({ path: string() }, ['path']),
    result: returns<TaskFolderView>(),
    reveals: ['hostPaths'],
    roles: everyone,
  },
  'tasks.get': {
    params: object({ path: string() }, ['path']),
    result: returns<TaskDetail>(),
    reveals: ['hostPaths'],
    roles: everyone,
  },
  /** `withTask`: only the runs that have that task (by its key), e.g. to compare one task across runs. */
  'runs.list': {
    params: object({ path: string(), withTask: string() }),
    result: returns<RunListItem[]>(),
    reveals: ['grades', 'hostPaths'],
    roles: everyone,
  },
  'runs.get': {
    params: runOnly,
    result: returns<RunDetail>(),
    reveals: ['grades', 'hostPaths'],
    roles: everyone,
  },
  'runs.task': {
    params: runTask,
    result: returns<TaskTrajectory>(),
    reveals: ['grades', 'othersLabels', 'hostPaths'],
    roles: everyone,
  },
  /** The queue of a run enqueued for workers (`proctor run --queue`): its jobs, workers, rate and ETA; null otherwise. */
  'runs.queue': { params: runOnly, result: returns<RunQueueView | null>(), reveals: [], roles: everyone },
  /** One task in two to four runs, with the first step where their actions part. */
  'runs.compare': {
    params: object({ runIds: runIds(4), taskKey: string() }, ['runIds', 'taskKey']),
    result: returns<TaskComparison>(),
    reveals: ['grades', 'othersLabels', 'hostPaths'],
    roles: everyone,
  },
  /** Per-step screen differences of the same runs (slower: asked for after the first paint). */
  'runs.stepDiffs': {
    params: object({ runIds: runIds(4), taskKey: string() }, ['runIds', 'taskKey']),
    result: returns<StepDifferences>(),
    reveals: [],
    roles: everyone,
  },
  'runs.start': {
    params: startRunParams,
    result: returns<{ runId: string }>(),
    reveals: [],
    roles: everyone,
  },
  /**
   * approve / reject need the task (and its step), so approving one task never performs another's action; edit
   * performs `code` (in the run's action space) instead of the proposed action.
   */
  'runs.control': {
    params: object(
      {
        runId: string(),
        action: oneOf(['pause', 'resume', 'stop', 'approve', 'reject', 'edit']),
        taskKey: string(),
        step: integer({ minimum: 1 }),
        code: string({ maxLength: 20000 }),
      },
      ['runId', 'action'],
    ),
    result: ok,
    reveals: [],
    roles: everyone,
  },
  /** What live tasks of a workbench-started run wait for. */
  'runs.pending': {
    params: runOnly,
    result: returns<{ taskKey: string; awaiting: Awaiting }[]>(),
    reveals: [],
    roles: everyone,
  },
  /** The `human` agent's next entry (pyautogui code or computer_13 JSON), as a person typed or clicked it. */
  'runs.act': {
    params: object({ runId: string(), taskKey: string(), text: string({ minLength: 1, maxLength: 20000 }) }, [
      'runId',
      'taskKey',
      'text',
    ]),
    result: ok,
    reveals: [],
    roles: everyone,
  },
  /**
   * A run's statistics over its attempts (issue 24): the success rate with its bootstrap interval, per task k of n,
   * pass@k, pass^k and flaky marks, causes, cost, and the rate by category, app and difficulty with intervals.
   * Env and grading errors are left out of the rates unless `includeErrors`. Rates and causes are grades: not for
   * annotators (they see grades only item by item, after labelling).
   */
  'runs.stats': {
    params: object({ runId: string(), includeErrors: boolean() }, ['runId']),
    result: returns<RunStats>(),
    reveals: ['grades'],
    roles: ['reviewer', 'lead'],
    does: 'see run statistics',
  },
  /** Run B (`runIds[1]`) against run A (`runIds[0]`) paired over their common tasks (interval, McNemar, flips, sentence). */
  'runs.pairedStats': {
    params: object({ runIds: runIds(2), includeErrors: boolean() }, ['runIds']),
    result: returns<PairedComparison>(),
    reveals: ['grades'],
    roles: ['reviewer', 'lead'],
    does: 'see run statistics',
  },
  /**
   * The task's replay as an MP4 (`proctor export video` for one task: click marks, zooms, captions, the verdict),
   * written beside the task's files; `path` is below the served root, for `fileUrl`. Needs ffmpeg on the engine.
   * The video ends on the verdict card (the score): not for annotators, who may be labelling the task blind.
   */
  'runs.exportVideo': {
    params: runTask,
    result: returns<{ path: string; bytes: number; frames: number; seconds: number }>(),
    reveals: ['grades', 'hostPaths'],
    roles: ['reviewer', 'lead'],
    does: 'export replay videos',
  },
  /**
   * A person's label, appended as an event. The author is the caller (team token, or the OS user alone); an
   * `author` naming someone else is refused. Step marks need `correct` or `mark`.
   */
  'labels.add': {
    params: object({ runId: string(), taskKey: string(), label: labelInput }, ['runId', 'taskKey', 'label']),
    result: ok,
    reveals: [],
    roles: everyone,
  },
  /** A lead's final label on a disagreement (`complete`, or `safety` for a safety disagreement; one of them), with the reason; the others' labels stay. */
  'labels.settle': {
    params: object(
      {
        runId: string(),
        taskKey: string(),
        complete: oneOf(completions),
        safety: oneOf(safetyLevels),
        reason: string({ minLength: 1, maxLength: 4000 }),
      },
      ['runId', 'taskKey', 'reason'],
    ),
    result: ok,
    reveals: [],
    roles: ['lead'],
    does: 'settle a conflict',
  },
  /** Items where people, or people and the rule, disagree (below `path`, default the whole root). */
  'labels.conflicts': {
    params: object({ path: string() }),
    result: returns<Conflict[]>(),
    reveals: ['grades', 'othersLabels', 'hostPaths'],
    roles: ['lead', 'reviewer'],
    does: 'see the conflict queue',
  },
  /** Agreement figures over the runs below `path`. */
  'labels.agreement': {
    params: object({ path: string() }),
    result: returns<AgreementReport>(),
    reveals: ['grades', 'othersLabels'],
    roles: ['lead', 'reviewer'],
    does: 'see agreement figures',
  },
  /** The caller's assigned items ("my work"): next item, n of m. */
  'labels.queue': {
    params: object({}),
    result: returns<WorkQueue>(),
    reveals: ['hostPaths'],
    roles: everyone,
  },
  /** A lead spreads runs' tasks over people, k per task, never the run's author; blind unless `blind: false`. */
  'labels.assign': {
    params: object(
      {
        runs: array(string(), { minItems: 1, maxItems: 10000 }),
        perItem: integer({ minimum: 1, maximum: 50 }),
        people: array(string({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 }),
        blind: boolean(),
      },
      ['runs', 'perItem', 'people'],
    ),
    result: returns<{ assigned: number; short: { run: string; task: string; got: number }[] }>(),
    reveals: ['hostPaths'],
    roles: ['lead'],
    does: 'assign work',
  },
  /** Who the caller is, and whether the folder has a team. */
  'labels.me': {
    params: object({}),
    result: returns<Caller & { team: boolean }>(),
    reveals: [],
    roles: everyone,
  },
  /** A cross-validation review of a task file (checks a–e of Spider2-V §3.1, each a verdict and a note). */
  'reviews.add': {
    params: object(
      {
        task: string(),
        checks: someOf(
          ['a', 'b', 'c', 'd', 'e'],
          object({ verdict: oneOf(['pass', 'fail', 'unsure']), note: string({ maxLength: 4000 }) }, [
            'verdict',
          ]),
          { minProperties: 1 },
        ),
      },
      ['task', 'checks'],
    ),
    result: returns<TaskReviewView>(),
    reveals: ['hostPaths'],
    roles: ['reviewer', 'lead'],
    does: 'review tasks',
  },
  /** A task's reviews and the status that follows. */
  'reviews.get': {
    params: object({ task: string() }, ['task']),
    result: returns<TaskReviewView>(),
    reveals: ['hostPaths'],
    roles: everyone,
  },
  /** A lead accepts or rejects a person's run of a task (agent human) as a demonstration, with a reason (an appended event). */
  'demos.review': {
    params: object(
      {
        runId: string(),
        taskKey: string(),
        verdict: oneOf(['accepted', 'rejected']),
        reason: string({ minLength: 1, maxLength: 4000, pattern: '\\S' }),
      },
      ['runId', 'taskKey', 'verdict', 'reason'],
    ),
    result: returns<DemonstrationView>(),
    reveals: ['grades'],
    roles: ['lead'],
    does: 'review demonstrations',
  },
  /**
   * Whether a run's task is a person's run, and the demonstration reviews it has had (the latest decides). A
   * verdict on a person's run is not for annotators, who may be labelling that run blind.
   */
  'demos.get': {
    params: runTask,
    result: returns<DemonstrationView>(),
    reveals: ['grades'],
    roles: ['reviewer', 'lead'],
    does: 'see demonstration reviews',
  },
} as const satisfies Record<string, MethodDeclaration>;

type Methods = typeof methods;
export type MethodName = keyof Methods;
export type Params<M extends MethodName> = Infer<Methods[M]['params']>;
export type Result<M extends MethodName> = ReturnOf<Methods[M]['result']>;

/** Every method's policy: its entry in the table above, read as a policy. */
export const methodPolicies: { readonly [M in MethodName]: MethodPolicy } = methods;

/** The methods whose answer may carry `R`. */
export type MethodsRevealing<R extends Reveal> = {
  [M in MethodName]: R extends Methods[M]['reveals'][number] ? M : never;
}[MethodName];
/** The methods a person of role `R` may call. */
export type MethodsOpenTo<R extends Role> = {
  [M in MethodName]: R extends Methods[M]['roles'][number] ? M : never;
}[MethodName];

/** The methods whose answers a blind annotator gets with grades and others' labels withheld. */
export type WithheldMethods = (MethodsRevealing<'grades'> | MethodsRevealing<'othersLabels'>) &
  MethodsOpenTo<'annotator'>;

/** Every event stream. */
export interface ApiEvents {
  run: RunEvent;
}
export type EventName = keyof ApiEvents;

/** What the renderer holds: the same object over IPC and over HTTP. */
export interface ProctorClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  subscribe<E extends EventName>(event: E, handler: (payload: ApiEvents[E]) => void): () => void;
  /** URL at which a file below the served root (e.g. a step screenshot) can be loaded by the UI. */
  fileUrl(path: string): string;
}

/** The engine side of the contract: one handler per method, and an event source. */
export type ApiHandlers = { [M in MethodName]: (params: Params<M>, caller?: Caller) => Promise<Result<M>> };

/** Channel names of the Electron transport (one enum, as electron/fiddle does). */
export const IpcChannel = {
  call: 'proctor:call',
  event: 'proctor:event',
} as const;

/** Error as it crosses a transport. */
export interface ApiError {
  code: 'bad_request' | 'not_found' | 'forbidden' | 'internal';
  message: string;
}

/** JSON Schemas of every method's params (from the table above); both transports validate payloads before dispatch. */
export const paramSchemas = Object.fromEntries(
  Object.entries(methods).map(([name, m]) => [name, m.params]),
) as {
  readonly [M in MethodName]: Schema<Params<M>>;
};

export const methodNames = Object.keys(methods) as MethodName[];

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}
