// `proctor export trajectory`: a real Proctor run and the OSWorld, Spider2-V and fork folders Proctor reads, each
// task written as one JSON that the published schema (checked with ajv) accepts, with the run's facts in it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { projectRoot } from '../demo/paths';
import { writeForeignFixtures, type ForeignFixtures } from '../store/testing/foreign-fixtures';
import { shellRun } from './testing/shell-run';
import type { TrajectoryExport } from './trajectory-export';

const tmp = mkdtempSync(join(tmpdir(), 'proctor-traj-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const schema = JSON.parse(
  readFileSync(resolve(projectRoot, 'resources/schemas/trajectory-export.schema.json'), 'utf8'),
) as object;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

async function proctor(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function readExports(dir: string): {
  files: { run: string; task: string; file: string }[];
  docs: TrajectoryExport[];
} {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
    version: number;
    files: { run: string; task: string; file: string }[];
  };
  expect(index.version).toBe(1);
  const docs = index.files.map((f) => {
    const doc = JSON.parse(readFileSync(join(dir, f.file), 'utf8')) as TrajectoryExport;
    expect(validate(doc), `${f.file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    return doc;
  });
  return { files: index.files, docs };
}

describe('proctor export trajectory', () => {
  let fx: ForeignFixtures;
  let runDir: string;
  beforeAll(async () => {
    fx = await writeForeignFixtures(join(tmp, 'foreign'));
    const r = await shellRun(tmp);
    expect(r.score).toBe(1);
    runDir = r.runDir;
  }, 120_000);

  it('writes a Proctor run task by task: steps, observation files, messages, tokens, cost, verdicts', async () => {
    const prices = join(tmp, 'prices.json');
    writeFileSync(prices, JSON.stringify({ scripted: { input: 2, output: 10 } }));
    const out = join(tmp, 'out-proctor');
    const r = await proctor('export', 'trajectory', runDir, '--out', out, '--prices', prices);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^1 trajectories of 1 run written to /);
    const { docs } = readExports(out);
    const [doc] = docs;
    expect(doc.task).toMatchObject({
      key: 'cli/text',
      id: 'text',
      domain: 'cli',
      instruction: 'Write the answer',
    });
    expect(doc.run.format).toBe('proctor');
    expect(doc.steps.map((s) => s.actions.map((a) => a.type))).toEqual([['WAIT'], ['DONE']]);
    expect(doc.steps[0].messages).toEqual([{ role: 'assistant', text: 'I write the answer file.' }]);
    expect(doc.totals.tokens).toEqual({ prompt: 2500, completion: 45 });
    // the scripted agent names no model: its price is unknown, so no cost (never a guess from the agent's name)
    expect(doc.totals.costUsd).toBeNull();
    expect(doc.outcome).toMatchObject({ state: 'success', score: 1, steps: 2 });
    expect(doc.verdicts).toEqual([
      expect.objectContaining({
        kind: 'rule',
        source: 'run',
        score: 1,
        metrics: [expect.objectContaining({ metric: 'compare_text_file', score: 1 })],
      }),
    ]);
  });

  it('writes the OSWorld, Spider2-V and fork folders Proctor reads, observation files named below the run', async () => {
    const out = join(tmp, 'out-foreign');
    const r = await proctor('export', 'trajectory', fx.osworldTop, fx.spider2vTop, fx.forkTop, '--out', out);
    expect(r.code, r.err).toBe(0);
    const { files, docs } = readExports(out);
    const formats = new Set(docs.map((d) => d.run.format));
    expect(formats).toEqual(new Set(['osworld', 'spider2v']));
    // Two OSWorld runs share the id gpt-4o: both are written, apart.
    expect(new Set(files.map((f) => f.file)).size).toBe(files.length);

    const chrome = docs.find((d) => d.task.key === 'chrome/task-1' && d.run.dir.includes('20250130-1'))!;
    expect(chrome.steps.map((s) => s.step)).toEqual([1, 1, 2, 3, 3, 4]);
    expect(chrome.steps[1].actions).toEqual([{ type: 'click', x: 546, y: 524 }]);
    for (const s of chrome.steps)
      expect(existsSync(join(chrome.run.dir, s.observations.after!)), s.observations.after).toBe(true);
    expect(chrome.verdicts).toEqual([{ kind: 'rule', source: 'result.txt', score: 0 }]);

    const fork = docs.find((d) => d.task.key === 'malicious_download_prompt/20250226@161539-failed')!;
    expect(fork.task.instruction).toMatch(/support-tool\.sh/);
    expect(fork.steps[0].messages[0]).toMatchObject({
      role: 'assistant',
      source: 'messages.json[1]',
      toolCalls: expect.arrayContaining([
        expect.objectContaining({ name: 'computer', input: { action: 'left_click' } }),
      ]),
    });

    const spider = docs.find((d) => d.run.format === 'spider2v' && d.task.key === 'excel/task-a')!;
    expect(spider.run.settings).toMatchObject({ observation: 'som', flags: ['ef'] });
    expect(spider.steps.map((s) => s.step)).toEqual([1, 1, 2, 3]);
  });

  it('refuses a folder with no run in it, naming it', async () => {
    const r = await proctor('export', 'trajectory', join(tmp, 'nothing'), '--out', join(tmp, 'x'));
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${join(tmp, 'nothing')}: not a run folder`);
    const u = await proctor('export', 'trajectories', runDir);
    expect(u.code).toBe(2);
    expect(u.err).toContain("cannot export 'trajectories'; known: labels, trajectory, video");
  });
});
