// Runs started from the UI: runs.start, and runs.control / runs.pending / runs.act on them (pause, resume,
// stop, approve or reject a proposed action, the `human` agent's entries).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiHandlers, StartRunParams } from '../../shared/api';
import type { Task } from '../../shared/task';
import { isIPv4 } from 'node:net';
import { createAgent } from '../agents';
import { resolveEndpoint } from '../agents/endpoint';
import { HumanAgent } from '../agents/human';
import { parseReply } from '../agents/parse';
import { checkEnvSpec, EnvSpecError } from '../env/kinds';
import { runTasks } from '../runner/scheduler';
import {
  appendVerdict,
  observationFileOf,
  publish,
  runFiles as files,
  taskKeyOf,
  type RunManifest,
} from '../store';
import { loadTasks } from '../tasks/reader';
import { ApiRequestError } from './dispatch';
import { relativeToRoot } from './paths';
import { resolveTaskSource, type TaskSourceOptions } from './task-sources';
import { GatedAgent, RunGate } from './run-gate';
import { SafetyGuardAgent } from '../safety/guard';
import type { ActionSpace } from '../../shared/spaces';

/**
 * The model key stays with the engine; a client may not send it elsewhere. A base URL named by the UI must be
 * the configured one, or a server on this machine (vLLM, Ollama, LM Studio on loopback).
 */
function checkBaseUrl(baseUrl: string | undefined): void {
  if (!baseUrl) return;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ApiRequestError('bad_request', `base URL '${baseUrl}' is not a URL`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'))) return;
  let configured: string | undefined;
  try {
    configured = resolveEndpoint({ section: 'agent', requireModel: false }).endpoint.baseUrl;
  } catch {
    configured = undefined;
  }
  if (configured && new URL(configured).href === url.href) return;
  throw new ApiRequestError(
    'forbidden',
    `the workbench sends the model key only to the configured base URL or to a server on this machine; set '${baseUrl}' as PROCTOR_BASE_URL or in the config file on the engine's side`,
  );
}

interface LiveRun {
  runId: string;
  /** The action space the run's agents answer in (an edited action is read in it). */
  actionSpace: ActionSpace;
  runDir: string;
  gate: RunGate;
  abort: AbortController;
  humans: Map<string, HumanAgent>;
  done: Promise<unknown>;
}

export class RunControl {
  private readonly runs = new Map<string, LiveRun>();
  constructor(
    private readonly root: string,
    private readonly sources: TaskSourceOptions = {},
  ) {}

  /** Stops every run this workbench drives (the Electron shell's global "stop the agent" key); how many. */
  stopAll(): number {
    let n = 0;
    for (const run of this.runs.values()) {
      if (run.abort.signal.aborted) continue;
      run.gate.setPaused(false);
      run.abort.abort(new Error('stopped by a person (the stop-the-agent key)'));
      n++;
    }
    return n;
  }

  /** Whether a person paused this workbench's run. */
  isPaused(runId: string): boolean {
    const run = this.runs.get(runId) ?? [...this.runs.values()].find((r) => runId.endsWith(r.runId));
    return run?.gate.isPaused ?? false;
  }

  owns(runId: string): boolean {
    return this.runs.has(runId) || [...this.runs.values()].some((r) => runId.endsWith(r.runId));
  }

  private live(runId: string): LiveRun {
    const run = this.runs.get(runId) ?? [...this.runs.values()].find((r) => runId.endsWith(r.runId));
    if (!run)
      throw new ApiRequestError('not_found', `no run '${runId}' started from this workbench is going on`);
    return run;
  }

  async start(params: StartRunParams): ReturnType<ApiHandlers['runs.start']> {
    checkBaseUrl(params.baseUrl);
    if (params.env !== undefined) {
      try {
        checkEnvSpec(params.env);
      } catch (e) {
        if (e instanceof EnvSpecError) throw new ApiRequestError('bad_request', `environment: ${e.message}`);
        throw e;
      }
    }
    const repeats = params.repeats ?? 1;
    // Approvals, the human agent's entries and safety stops are kept per task: attempts of one task would share them.
    if (repeats > 1 && (params.approveEachAction || params.stopOnUnsafe || params.agent === 'human'))
      throw new ApiRequestError(
        'bad_request',
        `repeats ${repeats}: not with ${params.agent === 'human' ? 'the human agent' : params.approveEachAction ? 'approve each action' : 'stop on unsafe'} (the attempts of a task would share its approvals and stops); run the repeats without it, or one attempt`,
      );
    const paths = params.tasks.map((p) => resolveTaskSource(this.root, p, this.sources));
    const { tasks, problems } = await loadTasks(paths);
    if (!tasks.length) {
      const why = problems
        .slice(0, 3)
        .map((p) => `${relativeToRoot(this.root, p.file)}: ${p.message}`)
        .join('; ');
      throw new ApiRequestError(
        'bad_request',
        `no tasks to run in ${params.tasks.join(', ')}${why ? ` (${why})` : ''}`,
      );
    }
    const outDir = join(this.root, 'results');
    const abort = new AbortController();
    let runId = '';
    let manifest: RunManifest | undefined;
    // the gate's pauses and approvals go on the live bus, as the run's own events do
    const gate = new RunGate(!!params.approveEachAction, publish, () => runId);
    const humans = new Map<string, HumanAgent>();
    const observationPath = (task: Task) => (step: number) => {
      if (!manifest) {
        const file = join(outDir, runId, files.manifest);
        if (existsSync(file)) manifest = JSON.parse(readFileSync(file, 'utf8')) as RunManifest;
      }
      const dir = manifest?.taskInfo?.[taskKeyOf(task)]?.dir;
      const file = dir ? observationFileOf(join(outDir, runId), dir, step) : undefined;
      return file ? relativeToRoot(this.root, join(outDir, runId, file)) : undefined;
    };
    const makeAgent = (task: Task) => {
      const inner = createAgent(params.agent, {
        model: params.model,
        baseUrl: params.baseUrl,
        demos: this.root,
      }); // demo: demonstrations accepted below the served folder
      if (inner instanceof HumanAgent) humans.set(taskKeyOf(task), inner);
      // Stop on unsafe: a step a safety detector fires on is not performed, its verdict is stored, the run pauses.
      const guarded = params.stopOnUnsafe
        ? new SafetyGuardAgent(
            inner,
            { instruction: task.instruction, safety: task.safety, setup: task.setup, file: task.file },
            (v) => {
              appendVerdict(join(outDir, runId), taskKeyOf(task), v);
              gate.setPaused(true);
            },
            'continue',
          )
        : inner;
      return new GatedAgent(guarded, gate, taskKeyOf(task), observationPath(task));
    };
    let started!: (id: string) => void;
    let failed!: (e: unknown) => void;
    const runStarted = new Promise<string>((ok, fail) => ((started = ok), (failed = fail)));
    const done = runTasks(tasks, {
      agent: makeAgent,
      agentName: params.agent,
      model: params.model,
      observation: params.observation,
      actionSpace: params.actionSpace,
      ...(params.env !== undefined ? { env: params.env } : {}),
      parallel: params.parallel,
      maxSteps: params.maxSteps,
      ...(repeats > 1 ? { repeats } : {}),
      outDir,
      args: ['workbench', ...params.tasks],
      signal: abort.signal,
      onEvent: (e) => {
        if (e.kind === 'run.started' && !runId) {
          runId = e.runId;
          this.runs.set(runId, {
            runId,
            runDir: join(outDir, runId),
            actionSpace: params.actionSpace ?? 'pyautogui',
            gate,
            abort,
            humans,
            done,
          });
          started(runId);
        }
      },
    }).then(
      (outcome) => outcome,
      (e: unknown) => {
        failed(e);
        return undefined;
      },
    );
    const id = await runStarted.catch((e: unknown) => {
      throw new ApiRequestError('internal', `the run did not start: ${(e as Error).message}`);
    });
    void done.finally(() => this.runs.delete(id));
    return { runId: relativeToRoot(this.root, join(outDir, id)) };
  }

  async control(
    runId: string,
    action: 'pause' | 'resume' | 'stop' | 'approve' | 'reject' | 'edit',
    taskKey?: string,
    step?: number,
    code?: string,
  ): ReturnType<ApiHandlers['runs.control']> {
    const run = this.live(runId);
    switch (action) {
      case 'pause':
        run.gate.setPaused(true);
        return { ok: true };
      case 'resume':
        run.gate.setPaused(false);
        return { ok: true };
      case 'stop':
        run.gate.setPaused(false);
        run.abort.abort(new Error('stopped from the workbench'));
        return { ok: true };
      case 'approve':
      case 'reject':
        if (!taskKey)
          throw new ApiRequestError(
            'bad_request',
            `${action} names the task (taskKey) whose action it decides`,
          );
        return { ok: run.gate.decide(action, taskKey, step) };
      case 'edit': {
        if (!taskKey)
          throw new ApiRequestError('bad_request', 'edit names the task (taskKey) whose action it replaces');
        if (!code?.trim())
          throw new ApiRequestError('bad_request', 'edit gives the code to perform instead (code)');
        const parsed = parseReply(code, run.actionSpace);
        if (!parsed.ok) throw new ApiRequestError('bad_request', `edit: ${parsed.message}`);
        return { ok: run.gate.decide({ edit: code }, taskKey, step) };
      }
    }
  }

  pending(runId: string): ReturnType<ApiHandlers['runs.pending']> {
    const run = this.runs.get(runId) ?? [...this.runs.values()].find((r) => runId.endsWith(r.runId));
    return Promise.resolve(
      run ? [...run.gate.pending].map(([taskKey, awaiting]) => ({ taskKey, awaiting })) : [],
    );
  }

  async act(runId: string, taskKey: string, text: string): ReturnType<ApiHandlers['runs.act']> {
    const run = this.live(runId);
    const human = run.humans.get(taskKey);
    if (!human)
      throw new ApiRequestError(
        'bad_request',
        `task '${taskKey}' of run '${runId}' is not driven by the human agent`,
      );
    human.submit(text);
    return { ok: true };
  }

  async close(): Promise<void> {
    for (const run of this.runs.values()) run.abort.abort(new Error('the workbench closed'));
    await Promise.all([...this.runs.values()].map((r) => r.done));
  }
}
