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
    capabilities?: {
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

export interface StartRunParams {
  tasks: string[];
  agent: string;
  model?: string;
  baseUrl?: string;
  observation?: ObservationType;
  actionSpace?: ActionSpace;
  /** Environment spec: `local` (default), `local:1280x800`, `osworld://host:5000`, … */
  env?: string;
  parallel?: number;
  maxSteps?: number;
  approveEachAction?: boolean;
  /** Safety detectors check each proposed step: one that fires is not performed and the run pauses for a person. */
  stopOnUnsafe?: boolean;
  /** Attempts per task, each in a fresh environment (like `proctor run --repeats N`); default 1. */
  repeats?: number;
}

/** Every request method: its params and its result. */
export interface ApiMethods {
  'app.info': { params: Record<string, never>; result: AppInfo };
  'tasks.open': { params: { path: string }; result: TaskFolderView };
  'tasks.get': { params: { path: string }; result: TaskDetail };
  /** `withTask`: only the runs that have that task (by its key), e.g. to compare one task across runs. */
  'runs.list': { params: { path?: string; withTask?: string }; result: RunListItem[] };
  'runs.get': { params: { runId: string }; result: RunDetail };
  'runs.task': { params: { runId: string; taskKey: string }; result: TaskTrajectory };
  /** The queue of a run enqueued for workers (`proctor run --queue`): its jobs, workers, rate and ETA; null otherwise. */
  'runs.queue': { params: { runId: string }; result: RunQueueView | null };
  /** One task in two to four runs, with the first step where their actions part. */
  'runs.compare': { params: { runIds: string[]; taskKey: string }; result: TaskComparison };
  /** Per-step screen differences of the same runs (slower: asked for after the first paint). */
  'runs.stepDiffs': { params: { runIds: string[]; taskKey: string }; result: StepDifferences };
  'runs.start': { params: StartRunParams; result: { runId: string } };
  'runs.control': {
    /** approve / reject need the task (and its step), so approving one task never performs another's action. */
    /** edit performs `code` (in the run's action space) instead of the proposed action. */
    params: {
      runId: string;
      action: 'pause' | 'resume' | 'stop' | 'approve' | 'reject' | 'edit';
      taskKey?: string;
      step?: number;
      code?: string;
    };
    result: { ok: boolean };
  };
  /** What live tasks of a workbench-started run wait for. */
  'runs.pending': { params: { runId: string }; result: { taskKey: string; awaiting: Awaiting }[] };
  /** The `human` agent's next entry (pyautogui code or computer_13 JSON), as a person typed or clicked it. */
  'runs.act': { params: { runId: string; taskKey: string; text: string }; result: { ok: boolean } };
  /**
   * A run's statistics over its attempts (issue 24): the success rate with its bootstrap interval, per task k of n,
   * pass@k, pass^k and flaky marks, causes, cost, and the rate by category, app and difficulty with intervals.
   * Env and grading errors are left out of the rates unless `includeErrors`.
   */
  'runs.stats': { params: { runId: string; includeErrors?: boolean }; result: RunStats };
  /** Run B (`runIds[1]`) against run A (`runIds[0]`) paired over their common tasks (interval, McNemar, flips, sentence). */
  'runs.pairedStats': { params: { runIds: string[]; includeErrors?: boolean }; result: PairedComparison };
  /**
   * A person's label, appended as an event. The author is the caller (team token, or the OS user alone); an
   * `author` naming someone else is refused. Step marks need `correct` or `mark`.
   */
  'labels.add': {
    params: { runId: string; taskKey: string; label: LabelInput };
    result: { ok: boolean };
  };
  /** A lead's final label on a disagreement (`complete`, or `safety` for a safety disagreement; one of them), with the reason; the others' labels stay. */
  'labels.settle': {
    params: { runId: string; taskKey: string; complete?: Completion; safety?: SafetyLevel; reason: string };
    result: { ok: boolean };
  };
  /** Items where people, or people and the rule, disagree (below `path`, default the whole root). */
  'labels.conflicts': { params: { path?: string }; result: Conflict[] };
  /** Agreement figures over the runs below `path`. */
  'labels.agreement': { params: { path?: string }; result: AgreementReport };
  /** The caller's assigned items ("my work"): next item, n of m. */
  'labels.queue': { params: Record<string, never>; result: WorkQueue };
  /** A lead spreads runs' tasks over people, k per task, never the run's author; blind unless `blind: false`. */
  'labels.assign': {
    params: { runs: string[]; perItem: number; people: string[]; blind?: boolean };
    result: { assigned: number; short: { run: string; task: string; got: number }[] };
  };
  /** Who the caller is, and whether the folder has a team. */
  'labels.me': { params: Record<string, never>; result: Caller & { team: boolean } };
  /** A cross-validation review of a task file (checks a–e of Spider2-V §3.1, each a verdict and a note). */
  'reviews.add': {
    params: {
      task: string;
      checks: Partial<
        Record<'a' | 'b' | 'c' | 'd' | 'e', { verdict: 'pass' | 'fail' | 'unsure'; note?: string }>
      >;
    };
    result: TaskReviewView;
  };
  /** A task's reviews and the status that follows. */
  'reviews.get': { params: { task: string }; result: TaskReviewView };
  /** A lead accepts or rejects a person's run of a task (agent human) as a demonstration, with a reason (an appended event). */
  'demos.review': {
    params: { runId: string; taskKey: string; verdict: 'accepted' | 'rejected'; reason: string };
    result: DemonstrationView;
  };
  /** Whether a run's task is a person's run, and the demonstration reviews it has had (the latest decides). */
  'demos.get': { params: { runId: string; taskKey: string }; result: DemonstrationView };
  /**
   * The task's replay as an MP4 (`proctor export video` for one task: click marks, zooms, captions, the verdict),
   * written beside the task's files; `path` is below the served root, for `fileUrl`. Needs ffmpeg on the engine.
   */
  'runs.exportVideo': {
    params: { runId: string; taskKey: string };
    result: { path: string; bytes: number; frames: number; seconds: number };
  };
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

/** What the UI sends for a label: the engine adds the author, role, what the person saw, and the time. */
export interface LabelInput {
  author?: string;
  complete?: Completion;
  subScores?: { name: string; evaluation: Completion }[];
  steps?: { step: number; correct?: boolean; mark?: StepMark; note?: string }[];
  comment?: string;
  /** A safety label: safe / unsafe / unsure, the categories and the first unsafe step (stored as a person's safety verdict). */
  safety?: { verdict: SafetyLevel; categories?: SafetyCategory[]; step?: number; reason?: string };
}

export type MethodName = keyof ApiMethods;
export type Params<M extends MethodName> = ApiMethods[M]['params'];
export type Result<M extends MethodName> = ApiMethods[M]['result'];

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

const everyone = ['annotator', 'reviewer', 'lead'] as const;

/**
 * Every method's policy, in one table: a method missing here does not compile. A blind annotator (one who has not
 * labelled the item yet) is refused a method not open to annotators, and given the answer of one that reveals
 * grades or others' labels with those withheld; a method revealing secrets is refused to every person of a team.
 */
export const methodPolicies = {
  'app.info': { reveals: ['hostPaths'], roles: everyone },
  'tasks.open': { reveals: ['hostPaths'], roles: everyone },
  'tasks.get': { reveals: ['hostPaths'], roles: everyone },
  'runs.list': { reveals: ['grades', 'hostPaths'], roles: everyone },
  'runs.get': { reveals: ['grades', 'hostPaths'], roles: everyone },
  'runs.task': { reveals: ['grades', 'othersLabels', 'hostPaths'], roles: everyone },
  'runs.queue': { reveals: [], roles: everyone },
  'runs.compare': { reveals: ['grades', 'othersLabels', 'hostPaths'], roles: everyone },
  'runs.stepDiffs': { reveals: [], roles: everyone },
  'runs.start': { reveals: [], roles: everyone },
  'runs.control': { reveals: [], roles: everyone },
  'runs.pending': { reveals: [], roles: everyone },
  'runs.act': { reveals: [], roles: everyone },
  // Rates and causes are grades: not for annotators (they see grades only item by item, after labelling).
  'runs.stats': { reveals: ['grades'], roles: ['reviewer', 'lead'], does: 'see run statistics' },
  'runs.pairedStats': { reveals: ['grades'], roles: ['reviewer', 'lead'], does: 'see run statistics' },
  'labels.add': { reveals: [], roles: everyone },
  'labels.settle': { reveals: [], roles: ['lead'], does: 'settle a conflict' },
  'labels.conflicts': {
    reveals: ['grades', 'othersLabels', 'hostPaths'],
    roles: ['lead', 'reviewer'],
    does: 'see the conflict queue',
  },
  'labels.agreement': {
    reveals: ['grades', 'othersLabels'],
    roles: ['lead', 'reviewer'],
    does: 'see agreement figures',
  },
  'labels.queue': { reveals: ['hostPaths'], roles: everyone },
  'labels.assign': { reveals: ['hostPaths'], roles: ['lead'], does: 'assign work' },
  'labels.me': { reveals: [], roles: everyone },
  'reviews.add': { reveals: ['hostPaths'], roles: ['reviewer', 'lead'], does: 'review tasks' },
  'reviews.get': { reveals: ['hostPaths'], roles: everyone },
  'demos.review': { reveals: ['grades'], roles: ['lead'], does: 'review demonstrations' },
  // A verdict on a person's run is not for annotators, who may be labelling that run blind.
  'demos.get': { reveals: ['grades'], roles: ['reviewer', 'lead'], does: 'see demonstration reviews' },
  // The video ends on the verdict card (the score): not for annotators, who may be labelling the task blind.
  'runs.exportVideo': {
    reveals: ['grades', 'hostPaths'],
    roles: ['reviewer', 'lead'],
    does: 'export replay videos',
  },
} as const satisfies { readonly [M in MethodName]: MethodPolicy };

type Policies = typeof methodPolicies;
/** The methods whose answer may carry `R`. */
export type MethodsRevealing<R extends Reveal> = {
  [M in MethodName]: R extends Policies[M]['reveals'][number] ? M : never;
}[MethodName];
/** The methods a person of role `R` may call. */
export type MethodsOpenTo<R extends Role> = {
  [M in MethodName]: R extends Policies[M]['roles'][number] ? M : never;
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

const str = { type: 'string', maxLength: 4096 } as const;
const obj = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;

/** JSON Schemas of every method's params; both transports validate payloads against these before dispatch. */
export const paramSchemas: Record<MethodName, Record<string, unknown>> = {
  'app.info': obj({}),
  'tasks.open': obj({ path: str }, ['path']),
  'tasks.get': obj({ path: str }, ['path']),
  'runs.list': obj({ path: str, withTask: str }),
  'runs.get': obj({ runId: str }, ['runId']),
  'runs.task': obj({ runId: str, taskKey: str }, ['runId', 'taskKey']),
  'runs.queue': obj({ runId: str }, ['runId']),
  'runs.compare': obj({ runIds: { type: 'array', items: str, minItems: 2, maxItems: 4 }, taskKey: str }, [
    'runIds',
    'taskKey',
  ]),
  'runs.stepDiffs': obj({ runIds: { type: 'array', items: str, minItems: 2, maxItems: 4 }, taskKey: str }, [
    'runIds',
    'taskKey',
  ]),
  'runs.start': obj(
    {
      tasks: { type: 'array', items: str, minItems: 1, maxItems: 10000 },
      agent: str,
      model: str,
      baseUrl: str,
      observation: { enum: [...OBSERVATION_TYPES] },
      actionSpace: { enum: [...ACTION_SPACES] },
      env: { type: 'string', minLength: 1, maxLength: 2048 },
      parallel: { type: 'integer', minimum: 1, maximum: 64 },
      maxSteps: { type: 'integer', minimum: 1, maximum: 1000 },
      approveEachAction: { type: 'boolean' },
      stopOnUnsafe: { type: 'boolean' },
      repeats: { type: 'integer', minimum: 1, maximum: 100 },
    },
    ['tasks', 'agent'],
  ),
  'runs.control': obj(
    {
      runId: str,
      action: { enum: ['pause', 'resume', 'stop', 'approve', 'reject', 'edit'] },
      taskKey: str,
      step: { type: 'integer', minimum: 1 },
      code: { type: 'string', maxLength: 20000 },
    },
    ['runId', 'action'],
  ),
  'runs.pending': obj({ runId: str }, ['runId']),
  'runs.act': obj({ runId: str, taskKey: str, text: { type: 'string', minLength: 1, maxLength: 20000 } }, [
    'runId',
    'taskKey',
    'text',
  ]),
  'runs.stats': obj({ runId: str, includeErrors: { type: 'boolean' } }, ['runId']),
  'runs.pairedStats': obj(
    { runIds: { type: 'array', items: str, minItems: 2, maxItems: 2 }, includeErrors: { type: 'boolean' } },
    ['runIds'],
  ),
  'labels.add': obj(
    {
      runId: str,
      taskKey: str,
      label: {
        type: 'object',
        properties: {
          author: { type: 'string', minLength: 1, maxLength: 200 },
          complete: { enum: ['yes', 'no', 'unsure'] },
          subScores: {
            type: 'array',
            items: obj({ name: str, evaluation: { enum: ['yes', 'no', 'unsure'] } }, ['name', 'evaluation']),
          },
          steps: {
            type: 'array',
            maxItems: 1000,
            items: obj(
              {
                step: { type: 'integer', minimum: 1 },
                correct: { type: 'boolean' },
                mark: { enum: ['right', 'wrong', 'unnecessary'] },
                note: { type: 'string', maxLength: 4000 },
              },
              ['step'],
            ),
          },
          comment: { type: 'string', maxLength: 20000 },
          safety: obj(
            {
              verdict: { enum: ['safe', 'unsafe', 'unsure'] },
              categories: {
                type: 'array',
                maxItems: 5,
                items: {
                  enum: [
                    'code_from_task',
                    'secret_exposure',
                    'destructive',
                    'injection_compliance',
                    'forbidden_by_task',
                  ],
                },
              },
              step: { type: 'integer', minimum: 1 },
              reason: { type: 'string', maxLength: 4000 },
            },
            ['verdict'],
          ),
        },
        additionalProperties: false,
      },
    },
    ['runId', 'taskKey', 'label'],
  ),
  'labels.settle': obj(
    {
      runId: str,
      taskKey: str,
      complete: { enum: ['yes', 'no', 'unsure'] },
      safety: { enum: ['safe', 'unsafe', 'unsure'] },
      reason: { type: 'string', minLength: 1, maxLength: 4000 },
    },
    ['runId', 'taskKey', 'reason'],
  ),
  'labels.conflicts': obj({ path: str }),
  'labels.agreement': obj({ path: str }),
  'labels.queue': obj({}),
  'labels.me': obj({}),
  'labels.assign': obj(
    {
      runs: { type: 'array', items: str, minItems: 1, maxItems: 10000 },
      perItem: { type: 'integer', minimum: 1, maximum: 50 },
      people: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 200 },
        minItems: 1,
        maxItems: 1000,
      },
      blind: { type: 'boolean' },
    },
    ['runs', 'perItem', 'people'],
  ),
  'reviews.add': obj(
    {
      task: str,
      checks: {
        type: 'object',
        properties: Object.fromEntries(
          ['a', 'b', 'c', 'd', 'e'].map((c) => [
            c,
            obj(
              { verdict: { enum: ['pass', 'fail', 'unsure'] }, note: { type: 'string', maxLength: 4000 } },
              ['verdict'],
            ),
          ]),
        ),
        additionalProperties: false,
        minProperties: 1,
      },
    },
    ['task', 'checks'],
  ),
  'reviews.get': obj({ task: str }, ['task']),
  'demos.review': obj(
    {
      runId: str,
      taskKey: str,
      verdict: { enum: ['accepted', 'rejected'] },
      reason: { type: 'string', minLength: 1, maxLength: 4000, pattern: '\\S' },
    },
    ['runId', 'taskKey', 'verdict', 'reason'],
  ),
  'demos.get': obj({ runId: str, taskKey: str }, ['runId', 'taskKey']),
  'runs.exportVideo': obj({ runId: str, taskKey: str }, ['runId', 'taskKey']),
};

export const methodNames = Object.keys(paramSchemas) as MethodName[];

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(paramSchemas, name);
}
