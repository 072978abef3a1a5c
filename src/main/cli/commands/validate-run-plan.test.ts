// `proctor validate` checks a run's run-plan.json against resources/schemas/run-plan.schema.json like the run's
// other files: the plan the runner writes is valid; a damaged one is named by file and JSON pointer.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main';
import { RunWriter } from '../../store';
import { RUN_PLAN_FILE, readRunPlan, writeRunPlan } from '../../store/run-plan';
import { planOf } from '../../runner/run-plan';
import type { RunOptions } from '../../runner/scheduler';
import { detectFileKind } from '../../tasks/kind';

async function proctor(...args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await main(args, { out: (l) => out.push(...l.split('\n')), err: () => undefined });
  return { code, out };
}

let dir: string;
let runDir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proctor-validate-plan-'));
  const writer = await RunWriter.create(join(dir, 'results'), {
    actionSpace: 'pyautogui',
    observation: 'screenshot',
    agent: 'llm',
    args: ['run'],
    tasks: [],
    taskInfo: {},
  });
  runDir = writer.runDir;
  // the plan of a run given every setting a plan keeps, written as the runner writes it
  const opts = {
    agent: 'llm',
    model: 'gpt-test',
    agentOptions: {
      baseUrl: 'https://user:pw@api.example.invalid/v1',
      sampling: { temperature: 0.2 },
      historyWindow: 3,
    },
    observation: 'screenshot_a11y_tree',
    actionSpace: 'computer_13',
    maxSteps: 30,
    taskTimeoutMs: 600_000,
    screen: { width: 1280, height: 800 },
    env: 'local:1280x800',
    downloads: join(dir, 'downloads'),
    gradingProfile: 'spider2v',
    repeats: 3,
    maxRefusals: 2,
    prices: { 'gpt-test': { input: 2.5, output: 10 } },
    allowUnisolated: true,
    parallel: 4,
  } as unknown as RunOptions;
  writeRunPlan(runDir, planOf(opts));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const planFile = () => join(runDir, RUN_PLAN_FILE);
async function editPlan(change: (j: Record<string, unknown>) => void): Promise<void> {
  const j = JSON.parse(await readFile(planFile(), 'utf8')) as Record<string, unknown>;
  change(j);
  await writeFile(planFile(), JSON.stringify(j, null, 2));
}

describe('proctor validate on run-plan.json', () => {
  it('checks the plan the runner writes as kind run-plan: valid, and not listed as "not checked"', async () => {
    expect(detectFileKind(planFile(), JSON.parse(await readFile(planFile(), 'utf8')))).toBe('run-plan');
    const r = await proctor('validate', '--strict', runDir);
    expect(r.code, r.out.join('\n')).toBe(0);
    expect(r.out.join('\n')).not.toMatch(/not checked/);
    const report = JSON.parse((await proctor('validate', '--json', runDir)).out.join('\n')) as {
      files: { file: string; kind: string; valid: boolean }[];
    };
    expect(report.files.find((f) => f.file.endsWith(RUN_PLAN_FILE))).toMatchObject({
      kind: 'run-plan',
      valid: true,
    });
    expect(readRunPlan(runDir)?.gradingProfile).toBe('spider2v'); // the reader takes what the schema takes
  });

  it('the schema names every field the runner writes (a new RunPlan field needs its line in the schema)', async () => {
    const schema = JSON.parse(
      await readFile(join(__dirname, '../../../../resources/schemas/run-plan.schema.json'), 'utf8'),
    ) as { properties: Record<string, unknown> };
    const written = Object.keys(JSON.parse(await readFile(planFile(), 'utf8')) as object).sort();
    expect(written).toEqual(Object.keys(schema.properties).sort());
  });

  it('names the file and the JSON pointer of each damaged field, exit 1', async () => {
    await editPlan((p) => {
      p.gradingProfile = 'strict';
      p.repeats = 0;
      (p.screen as Record<string, unknown>).width = 'wide';
      (p.prices as Record<string, Record<string, unknown>>)['gpt-test'].output = -1;
      delete p.agent;
    });
    const r = await proctor('validate', runDir);
    expect(r.code).toBe(1);
    const at = (pointer: string, message: string) =>
      expect(r.out).toContainEqual(
        expect.stringMatching(new RegExp(`run-plan\\.json:${pointer}: ${message}.*\\(schema run-plan\\)$`)),
      );
    at('/gradingProfile', 'must be one of "spider2v", "osworld", "native"');
    at('/repeats', 'must be >= 1');
    at('/screen/width', 'must be integer');
    at('/prices/gpt-test/output', 'must be >= 0');
    at('/agent', "missing required property 'agent'");
    expect(r.out.at(-1)).toMatch(/, 1 invalid,/);
    // the reader --resume uses refuses it too, naming the file and a field
    expect(() => readRunPlan(runDir)).toThrow(planFile());
  });

  it('a plan of a newer format is refused by its v', async () => {
    await editPlan((p) => (p.v = 2));
    const r = await proctor('validate', planFile());
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(expect.stringMatching(/run-plan\.json:\/v: must be equal to constant/));
  });
});
