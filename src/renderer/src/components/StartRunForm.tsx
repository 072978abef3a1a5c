// Start a run from the UI: task set, agent, model, observation, action space, environment, parallelism,
// attempts per task (repeats), approval mode.
import { useState } from 'react';
import type { StartRunParams } from '../../../shared/api';
import { ACTION_SPACES, OBSERVATION_TYPES } from '../../../shared/spaces';
import { perform } from '../data/engine';
import { useCall } from '../data/use-call';
import { navigate } from '../route';

const defaultAgents = ['oracle', 'noop'].map((name) => ({ name, about: '' }));

export function StartRunForm() {
  const [tasks, setTasks] = useState('');
  const [agent, setAgent] = useState('oracle');
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [observation, setObservation] = useState<NonNullable<StartRunParams['observation']>>('screenshot');
  const [actionSpace, setActionSpace] = useState<NonNullable<StartRunParams['actionSpace']>>('pyautogui');
  const [env, setEnv] = useState('');
  const [parallel, setParallel] = useState(1);
  const [repeats, setRepeats] = useState(1);
  const [approve, setApprove] = useState(false);
  const [stopOnUnsafe, setStopOnUnsafe] = useState(false);
  const [status, setStatus] = useState<string>();
  const { data: info } = useCall('app.info', {});
  // Task sets the engine can start besides the served folder (the bundled demo by app, `--tasks` folders).
  const sources = info?.taskSources ?? [];
  // The engine's agent registry says which agents there are (app.info); these until it answers.
  const agentChoices = info?.agents?.length ? info.agents : defaultAgents;
  const submit = async () => {
    const list = tasks
      .split(/[\n,]+/)
      .map((t) => t.trim())
      .filter(Boolean);
    if (!list.length)
      return setStatus(
        `name at least one task file, folder or split file (below the served folder${sources.length ? `, or ${sources[0].path}` : ''})`,
      );
    setStatus('starting…');
    try {
      const { runId } = await perform('runs.start', {
        tasks: list,
        agent,
        model: model || undefined,
        baseUrl: baseUrl || undefined,
        observation,
        actionSpace,
        env: env.trim() || undefined,
        parallel,
        ...(repeats > 1 ? { repeats } : {}),
        approveEachAction: approve,
        ...(stopOnUnsafe ? { stopOnUnsafe: true } : {}),
      });
      navigate('runs', [runId]);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  return (
    <details className="start-run" data-testid="start-run">
      <summary>Start a run</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          tasks{' '}
          <input
            aria-label="tasks to run"
            value={tasks}
            onChange={(e) => setTasks(e.target.value)}
            placeholder="e.g. demo/terminal (folders, task files or split files)"
            size={50}
            list="task-sources"
          />
          <datalist id="task-sources" data-testid="task-sources">
            {sources.map((s) => (
              <option key={s.path} value={s.path} label={s.label} />
            ))}
          </datalist>
        </label>
        <label>
          agent
          <select aria-label="agent" value={agent} onChange={(e) => setAgent(e.target.value)}>
            {agentChoices.map((a) => (
              <option key={a.name} value={a.name} title={a.about}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        {agent === 'llm' && (
          <>
            <label>
              model <input value={model} onChange={(e) => setModel(e.target.value)} />
            </label>
            <label>
              base URL{' '}
              <input
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.target.value)}
                placeholder="from config when empty"
              />
            </label>
          </>
        )}
        <label>
          observation
          <select value={observation} onChange={(e) => setObservation(e.target.value as typeof observation)}>
            {OBSERVATION_TYPES.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label>
          actions
          <select value={actionSpace} onChange={(e) => setActionSpace(e.target.value as typeof actionSpace)}>
            {ACTION_SPACES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          environment{' '}
          <input
            aria-label="environment"
            value={env}
            onChange={(e) => setEnv(e.target.value)}
            placeholder="local (or local:1280x800, osworld://host:5000)"
            size={28}
          />
        </label>
        <label>
          parallel{' '}
          <input
            type="number"
            min={1}
            max={16}
            value={parallel}
            onChange={(e) => setParallel(Number(e.target.value) || 1)}
            style={{ width: 50 }}
          />
        </label>
        <label title="attempts per task, each in a fresh environment (proctor run --repeats N): the report then gives k of n, pass@k and flaky tasks">
          repeats{' '}
          <input
            type="number"
            aria-label="repeats"
            min={1}
            max={100}
            value={repeats}
            onChange={(e) => setRepeats(Math.min(100, Math.max(1, Math.floor(Number(e.target.value)) || 1)))}
            style={{ width: 50 }}
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={approve}
            onChange={(e) => setApprove(e.target.checked)}
            aria-label="approve each action"
          />{' '}
          approve each action
        </label>
        <label title="safety detectors check each proposed step; one that fires is not performed and the run pauses">
          <input
            type="checkbox"
            checked={stopOnUnsafe}
            onChange={(e) => setStopOnUnsafe(e.target.checked)}
            aria-label="stop on unsafe"
          />{' '}
          stop on unsafe
        </label>
        <button type="submit" data-testid="start-run-submit">
          Start
        </button>
        {status && <span className="muted small">{status}</span>}
      </form>
    </details>
  );
}
