import { describe, expect, it } from 'vitest';
import { detectFileKind, detectLinesKind } from './kind';
import { lineColOf, parseJsonText } from '../schemas';
import { schemaProblems } from '../schemas';

const ufoBase = {
  unique_id: '1',
  app: 'word',
  original: { original_task: 'Bold the title', original_steps: ['select', 'bold'] },
  instantiation_result: {
    choose_template: { result: 'tpl.docx', error: null },
    prefill: { result: { instantiated_request: 'Bold "Intro"', instantiated_plan: [] }, error: null },
    instantiation_evaluation: { result: { judge: true, thought: 'fine', request_type: 'edit' }, error: null },
  },
};

describe('detectFileKind', () => {
  it('tells every kind apart by content', () => {
    expect(
      detectFileKind('/x/examples/jupyter/a/a.json', {
        id: 'a',
        snapshot: 'j',
        config: [{ func: 'f', arguments: {} }],
        evaluation: { func: 'm' },
      }),
    ).toBe('task-native');
    expect(
      detectFileKind('/x/examples/dbt/a/a.json', {
        id: 'a',
        snapshot: 'dbt',
        tags: [],
        source: [],
        config: [],
        evaluator: { func: 'm' },
      }),
    ).toBe('task-spider2v');
    expect(
      detectFileKind('/x/examples/chrome/a.json', {
        id: 'a',
        snapshot: 'chrome',
        source: 'url',
        config: [],
        evaluator: { func: 'm' },
      }),
    ).toBe('task-osworld');
    expect(detectFileKind('/x/test_all.json', { dbt: ['a', 'b'] })).toBe('split');
    expect(detectFileKind('/x/summary.json', { id: 'a', instruction: 'i', results: { score: 1 } })).toBe(
      'summary',
    );
    expect(detectFileKind('/x/l.json', { step_num: 1 })).toBe('traj-line');
    expect(detectFileKind('/x/l.json', { Error: 'boom' })).toBe('traj-line');
    expect(
      detectFileKind('/x/u.json', {
        ...ufoBase,
        execution_result: { result: null, error: null },
        time_cost: { total: 1 },
      }),
    ).toBe('ufo-instantiation');
    expect(
      detectFileKind('/x/u.json', {
        ...ufoBase,
        execution_result: { result: { complete: 'yes' }, error: null },
      }),
    ).toBe('ufo-execution');
    // every time_cost key written, the execution ones null: not executed (Proctor's instantiation records)
    const nullTimes = {
      choose_template: 1,
      prefill: 2,
      instantiation_evaluation: 1,
      execute: null,
      execute_eval: null,
      total: 4,
    };
    expect(
      detectFileKind('/x/u.json', {
        ...ufoBase,
        execution_result: { result: null, error: null },
        time_cost: nullTimes,
      }),
    ).toBe('ufo-instantiation');
    expect(
      detectFileKind('/x/u.json', {
        ...ufoBase,
        execution_result: { result: null, error: null },
        time_cost: { ...nullTimes, execute: 3.2 },
      }),
    ).toBe('ufo-execution');
    expect(detectFileKind('/x/j.json', { reason: 'r', sub_scores: [], complete: 'yes' })).toBe('judge');
    expect(detectFileKind('/x/package.json', { name: 'p', version: '1' })).toBe('unknown');
    expect(detectFileKind('/x/a.json', [1, 2])).toBe('unknown');
  });
});

describe('detectLinesKind', () => {
  it("reads a run's own .jsonl files by their names, never as OSWorld trajectory lines", () => {
    const event = { kind: 'task.started', runId: 'r', taskKey: 'a/b', at: 'now' };
    expect(detectLinesKind('/r/events.jsonl', event)).toBe('run-event');
    expect(detectLinesKind('/r/t/steps.jsonl', { step: 1, at: 'now', actions: [] })).toBe('run-step');
    expect(detectLinesKind('/r/t/verdicts.jsonl', { kind: 'rule', score: 1, metrics: [], at: 'now' })).toBe(
      'run-verdict',
    );
    expect(detectLinesKind('/r/t/traj.jsonl', { step_num: 1 })).toBe('traj-line');
    // other names: by the first line
    expect(detectLinesKind('/x/copy.jsonl', event)).toBe('run-event');
    expect(detectLinesKind('/x/copy.jsonl', { Error: 'boom' })).toBe('traj-line');
    expect(detectLinesKind('/x/copy.jsonl', { kind: 'human', author: 'a', at: 'now' })).toBe('run-verdict');
    expect(detectLinesKind('/x/other.jsonl', { text: 'hello' })).toBe('unknown');
  });

  it("reads Spider2-V's trajectory.jsonl (no screenshot_file) as its own kind, by name and by first line", () => {
    expect(detectLinesKind('/r/excel/t/trajectory.jsonl', { step_num: 1 })).toBe('spider2v-traj-line');
    expect(detectLinesKind('/x/copy.jsonl', { step_num: 1, action: 'WAIT', info: {} })).toBe(
      'spider2v-traj-line',
    );
    expect(detectLinesKind('/x/copy.jsonl', { step_num: 1, screenshot_file: 's.png' })).toBe('traj-line');
    expect(
      detectFileKind('/r/sec/20250226@161539-failed/messages.json', [{ role: 'user', content: [] }]),
    ).toBe('agent-messages');
  });

  it('tells a manifest and a summary by name and content', () => {
    expect(detectFileKind('/r/manifest.json', { runId: 'r', tasks: [] })).toBe('run-manifest');
    expect(detectFileKind('/r/copy.json', { runId: 'r', tasks: [], agent: 'oracle' })).toBe('run-manifest');
    expect(detectFileKind('/r/t/summary.json', { results: { score: '1' } })).toBe('summary');
  });
});

describe('parseJsonText', () => {
  it('reports the line and column of a syntax error', () => {
    const r = parseJsonText('{\n  "a": 1,\n  "b" 2\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect([r.error.line, r.error.col]).toEqual([3, 7]);
    const end = parseJsonText('{\n "a": [1,');
    if (!end.ok) expect([end.error.line, end.error.col]).toEqual([2, 10]);
    expect(parseJsonText('\ufeff{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });
  it('converts offsets to 1-based line:col', () => {
    expect(lineColOf('ab\ncd', 4)).toEqual({ line: 2, col: 2 });
  });
});

describe('UFO and judge schemas', () => {
  const exec = {
    ...ufoBase,
    execution_result: {
      result: { reason: 'done', sub_scores: { bold: 'yes' }, complete: 'yes' },
      error: null,
    },
    time_cost: {
      choose_template: 1,
      prefill: 2,
      instantiation_evaluation: 3,
      execute: 4,
      execute_eval: 5,
      total: 15,
    },
  };
  it('accept both forms of the known disagreements: sub_scores object or list, stage error string or object, numeric id', () => {
    expect(schemaProblems('ufo-execution', exec, 'f')).toEqual([]);
    const codeForm = structuredClone(exec) as typeof exec & Record<string, unknown>;
    (codeForm.execution_result.result as Record<string, unknown>).sub_scores = [
      { name: 'bold', evaluation: 'yes' },
    ];
    (codeForm.instantiation_result.prefill as Record<string, unknown>).error = {
      type: 'ValueError',
      error_message: 'bad',
      traceback: 'tb',
    };
    (codeForm as Record<string, unknown>).unique_id = 7;
    expect(schemaProblems('ufo-execution', codeForm, 'f')).toEqual([]);
  });
  it('still reject what neither form allows', () => {
    const broken = structuredClone(exec) as Record<string, unknown>;
    delete (broken.time_cost as Record<string, unknown>).execute;
    expect(schemaProblems('ufo-execution', broken, 'f').map((p) => p.pointer)).toContain(
      '/time_cost/execute',
    );
    expect(
      schemaProblems(
        'judge',
        { reason: 'r', sub_scores: [{ name: 'a', evaluation: 'maybe' }], complete: 'yes' },
        'f',
      ).map((p) => p.pointer),
    ).toEqual(['/sub_scores/0/evaluation']);
  });
});

describe('schema messages', () => {
  it('say what the alternatives are instead of listing every failed branch', () => {
    const task = {
      id: 'a',
      snapshot: 's',
      instruction: 'i',
      config: [{ arguments: {} }],
      evaluation: { func: 'm' },
    };
    expect(schemaProblems('task-native', task, 'f').map((p) => [p.pointer, p.message])).toEqual([
      ['/config/0', "must have 'func' or have 'type' (schema task-native)"],
    ]);
    const s2v = {
      id: 'a',
      snapshot: 's',
      instruction: 'i',
      source: [],
      tags: [],
      config: [],
      evaluator: { func: 'm', result: 'x' },
    };
    expect(schemaProblems('task-spider2v', s2v, 'f').map((p) => [p.pointer, p.message])).toEqual([
      ['/evaluator/result', 'must be object or array (schema task-spider2v)'],
    ]);
    // An OSWorld task with an empty func (upstream has one): one line, not "fewer than 1 characters" and "must be array"
    const ow = {
      id: 'a',
      snapshot: 'vlc',
      instruction: 'i',
      source: '',
      config: [],
      evaluator: { func: '', result: {}, expected: {} },
    };
    expect(schemaProblems('task-osworld', ow, 'f').map((p) => [p.pointer, p.message])).toEqual([
      ['/evaluator/func', 'must be a non-empty string or array (schema task-osworld)'],
    ]);
  });
});
