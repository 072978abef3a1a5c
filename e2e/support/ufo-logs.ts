// Writes UFO `logs/` folders as UFO's documentation describes them (response.log one JSON line per agent step,
// action_step<N>.png screenshots with _annotated variants, action_step_final.png, evaluation.log with the
// EvaluationAgent's verdict), in the current lowercase key style (UFO²) or the legacy capitalised one (UFO 1.x).
// Screenshots are real PNGs drawn with sharp: an application window with the control the step acts on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

export type UfoKeyStyle = 'current' | 'legacy';

interface UfoStep {
  agent: 'HostAgent' | 'AppAgent';
  fn: string;
  args: Record<string, unknown>;
  control: string;
  controlId: string;
  status: 'CONTINUE' | 'ASSIGN' | 'FINISH';
  observation: string;
  thought: string;
}

interface UfoSession {
  name: string;
  request: string;
  app: string;
  window: string;
  steps: UfoStep[];
  complete: 'yes' | 'no';
}

const sessions: UfoSession[] = [
  {
    name: 'notepad_type_hello',
    request: 'Type "hello world" into Notepad',
    app: 'NOTEPAD.EXE',
    window: 'Untitled - Notepad',
    complete: 'yes',
    steps: [
      {
        agent: 'HostAgent',
        fn: 'select_application_window',
        args: { id: '2', name: 'Untitled - Notepad' },
        control: 'Untitled - Notepad',
        controlId: '2',
        status: 'ASSIGN',
        observation: 'The desktop shows an empty Notepad window.',
        thought: 'Notepad is the application for this request.',
      },
      {
        agent: 'AppAgent',
        fn: 'click_input',
        args: { button: 'left', double: false },
        control: 'Text Editor',
        controlId: '14',
        status: 'CONTINUE',
        observation: 'Notepad is open with an empty document.',
        thought: 'Click into the editor to place the caret.',
      },
      {
        agent: 'AppAgent',
        fn: 'set_edit_text',
        args: { text: 'hello world' },
        control: 'Text Editor',
        controlId: '14',
        status: 'FINISH',
        observation: 'The caret is in the editor.',
        thought: 'Type the requested text; then the task is done.',
      },
    ],
  },
  {
    name: 'excel_sum_column',
    request: 'Sum column A of Book1 into A10',
    app: 'EXCEL.EXE',
    window: 'Book1 - Excel',
    complete: 'no',
    steps: [
      {
        agent: 'HostAgent',
        fn: 'select_application_window',
        args: { id: '3', name: 'Book1 - Excel' },
        control: 'Book1 - Excel',
        controlId: '3',
        status: 'ASSIGN',
        observation: 'Excel is open with Book1.',
        thought: 'Use Excel.',
      },
      {
        agent: 'AppAgent',
        fn: 'click_input',
        args: { button: 'left', double: false },
        control: 'A10',
        controlId: '31',
        status: 'CONTINUE',
        observation: 'The sheet shows numbers in A1:A9.',
        thought: 'Select A10 first.',
      },
      {
        agent: 'AppAgent',
        fn: 'type_keys',
        args: { keys: '=SUM(A1:A8){ENTER}' },
        control: 'A10',
        controlId: '31',
        status: 'FINISH',
        observation: 'A10 is selected.',
        thought: 'Enter the formula.',
      },
    ],
  },
];

export const ufoSessions = sessions.map((s) => ({
  name: s.name,
  request: s.request,
  app: s.app,
  complete: s.complete,
  steps: s.steps.length,
}));

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An application window screenshot (1280×800) with the control of the step outlined; `marks` adds SoM labels. */
async function screenshot(file: string, s: UfoSession, step: number, marks: boolean): Promise<void> {
  const [w, h] = [1280, 800];
  const control = s.steps[Math.min(step, s.steps.length - 1)];
  const x = 200 + ((step * 230) % 700);
  const y = 220 + ((step * 120) % 400);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <rect width="100%" height="100%" fill="#f3f3f3"/>
    <rect x="0" y="0" width="${w}" height="40" fill="#2b579a"/>
    <text x="16" y="27" font-size="20" fill="#fff" font-family="sans-serif">${escapeXml(s.window)} — step ${step}</text>
    <rect x="0" y="40" width="${w}" height="44" fill="#e1e1e1"/>
    <rect x="${x}" y="${y}" width="220" height="48" rx="4" fill="#fff" stroke="#2b579a" stroke-width="3"/>
    <text x="${x + 12}" y="${y + 31}" font-size="20" fill="#222" font-family="sans-serif">${escapeXml(control.control)}</text>
    ${marks ? `<rect x="${x - 4}" y="${y - 4}" width="228" height="56" fill="none" stroke="#e4572e" stroke-width="3"/><text x="${x - 4}" y="${y - 8}" font-size="18" fill="#e4572e" font-family="sans-serif">${control.controlId}</text>` : ''}
  </svg>`;
  await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toFile(file);
}

function currentLine(s: UfoSession, step: UfoStep, n: number, dir: string): Record<string, unknown> {
  const actionString = `${step.fn}(${Object.entries(step.args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? `'${v}'` : v === false ? 'False' : String(v)}`)
    .join(', ')})`;
  const action = {
    function: step.fn,
    arguments: step.args,
    target: {
      kind: step.agent === 'HostAgent' ? 'window' : 'control',
      name: step.control,
      id: step.controlId,
      type: step.agent === 'HostAgent' ? 'Window' : 'Edit',
    },
    result: { status: 'success', error: null, result: null },
    action_string: actionString,
    action_representation: `[Action] ${actionString}\n[Target] name=${step.control}, id=${step.controlId}\n[Status] success`,
    status: step.status,
  };
  const common = {
    observation: step.observation,
    thought: step.thought,
    status: step.status,
    round_step: n,
    round_num: 0,
    request: s.request,
    action: [action],
    action_representation: action.action_representation,
    execution_times: {
      DATA_COLLECTION: 0.412345,
      LLM_INTERACTION: 3.1415926,
      ACTION_EXECUTION: 0.250001,
      MEMORY_UPDATE: 0.01298874,
    },
    results: '',
  };
  if (step.agent === 'HostAgent')
    // HostAgent lines carry no session step (their processor context does not log one).
    return {
      ...common,
      agent_type: 'HostAgent',
      agent_name: 'HostAgent',
      agent_step: 0,
      current_subtask: s.request,
      application: '',
      message: [],
      plan: [],
    };
  return {
    ...common,
    agent_type: 'AppAgent',
    agent_name: `AppAgent/${s.app}/${s.window}`,
    application_process_name: s.app,
    session_step: n,
    subtask: s.request,
    llm_cost: 0.0123,
    comment: '',
    plan: ['(1) check the result'],
    action_type: 'UIControl',
    clean_screenshot_path: `${dir}/action_step${n}.png`,
    annotated_screenshot_path: `${dir}/action_step${n}_annotated.png`,
    action_success: true,
  };
}

function legacyLine(s: UfoSession, step: UfoStep, n: number): Record<string, unknown> {
  const common = {
    Observation: step.observation,
    Thought: step.thought,
    ControlLabel: step.controlId,
    ControlText: step.control,
    Status: step.status,
    Step: n,
    RoundStep: n,
    Round: 0,
    Request: s.request,
    Agent: step.agent,
    AgentName: step.agent,
    Application: s.app,
    Cost: 0.0123,
    time_cost: {
      capture_screenshot: 0.412345,
      get_response: 3.1415926,
      execute_action: 0.250001,
      update_memory: 0.01298874,
    },
  };
  if (step.agent === 'HostAgent')
    return { ...common, 'Current Sub-Task': s.request, Plan: [], Comment: '', Results: '' };
  return {
    ...common,
    Function: step.fn,
    Args: step.args,
    Subtask: s.request,
    Action: `${step.fn}()`,
    Plan: ['check the result'],
    Comment: '',
    Results: 'done',
  };
}

/** Writes the UFO sessions into `logs` (created) in the given key style; returns the folder. */
export async function writeUfoLogs(logs: string, style: UfoKeyStyle): Promise<string> {
  for (const s of sessions) {
    const dir = join(logs, s.name);
    mkdirSync(dir, { recursive: true });
    const lines = s.steps.map((step, n) =>
      style === 'current' ? currentLine(s, step, n, `logs/${s.name}`) : legacyLine(s, step, n),
    );
    writeFileSync(join(dir, 'response.log'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    for (let n = 0; n < s.steps.length; n++) {
      await screenshot(join(dir, `action_step${n}.png`), s, n, false);
      await screenshot(join(dir, `action_step${n}_annotated.png`), s, n, true);
    }
    await screenshot(join(dir, 'action_step_final.png'), s, s.steps.length, false);
    const verdict =
      style === 'current'
        ? {
            complete: s.complete,
            sub_scores: [{ name: 'request done', evaluation: s.complete }],
            reason: `The EvaluationAgent says ${s.complete}.`,
            level: 'session',
            request: s.request,
            type: 'evaluation_result',
            id: 0,
          }
        : {
            Complete: s.complete,
            'Sub-score': { 'request done': s.complete },
            Reason: `The EvaluationAgent says ${s.complete}.`,
          };
    writeFileSync(join(dir, 'evaluation.log'), JSON.stringify(verdict) + '\n');
  }
  return logs;
}
