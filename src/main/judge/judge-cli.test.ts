import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from '../cli/commands/judge';
import {
  requestText,
  startScriptedOpenAIStandin,
  type StandinRequest,
} from '../agents/testing/scripted-openai-standin';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-judge-cli-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A finished run of four tasks with rule scores 1, 1, 0, 0, one step and one screenshot each. */
async function writeRun(): Promise<string> {
  const runDir = path.join(root, 'run');
  const scores: Record<string, number> = { a: 1, b: 1, c: 0, d: 0 };
  const tasks = Object.keys(scores).map((id) => `demo/${id}`);
  const taskInfo: Record<string, { dir: string; instruction: string }> = {};
  for (const [id, score] of Object.entries(scores)) {
    const rel = `pyautogui/screenshot/oracle/demo/${id}`;
    taskInfo[`demo/${id}`] = { dir: rel, instruction: `Task ${id.toUpperCase()}: make the file.` };
    const dir = path.join(runDir, rel);
    fs.mkdirSync(dir, { recursive: true });
    await sharp({ create: { width: 320, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toFile(path.join(dir, 'step_1_20260101@000001.png'));
    fs.writeFileSync(
      path.join(dir, 'steps.jsonl'),
      JSON.stringify({
        step: 1,
        at: new Date().toISOString(),
        actions: [{ type: 'DONE' }],
        screenshot: `${rel}/step_1_20260101@000001.png`,
      }) + '\n',
    );
    fs.writeFileSync(
      path.join(dir, 'summary.json'),
      JSON.stringify({
        id,
        results: {
          score,
          state: 'success',
          eval_error: null,
          messages: [],
          total_tokens: 0,
          total_timing: 1,
        },
      }),
    );
  }
  fs.writeFileSync(
    path.join(runDir, 'manifest.json'),
    JSON.stringify({
      runId: 'run',
      startedAt: new Date().toISOString(),
      args: [],
      agent: 'oracle',
      actionSpace: 'pyautogui',
      observation: 'screenshot',
      proctorVersion: '0',
      machine: { host: 'h', platform: 'linux', cpus: 1 },
      tasks,
      taskInfo,
    }),
  );
  fs.writeFileSync(path.join(runDir, 'events.jsonl'), '');
  return runDir;
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('proctor judge', () => {
  it('judges a run through the stand-in, then --calibrate prints the hand-computed matrix and kappa', async () => {
    // The scripted judge says yes to task A only: judge yes,no,no,no vs rule yes,yes,no,no.
    // p_o = 3/4; p_e = 1/4·1/2 + 3/4·1/2 = 1/2; kappa = (3/4 − 1/2) / (1/2) = 0.5.
    const answer = (r: StandinRequest) => {
      const yes = requestText(r).includes('Task A:');
      return {
        kind: 'text' as const,
        content: JSON.stringify({
          reason: 'r',
          sub_scores: [{ name: 'file', evaluation: yes ? 'yes' : 'no' }],
          complete: yes ? 'yes' : 'no',
        }),
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      };
    };
    const standin = await startScriptedOpenAIStandin([answer, answer, answer, answer]);
    const runDir = await writeRun();
    const saved = { key: process.env.PROCTOR_API_KEY, config: process.env.PROCTOR_CONFIG };
    process.env.PROCTOR_API_KEY = 'sk-cli-judge-secret';
    process.env.PROCTOR_CONFIG = path.join(root, 'no-config.json');
    try {
      const first = io();
      expect(
        await command.run(
          [runDir, '--model', 'judge-m', '--base-url', standin.baseUrl, '--concurrency', '2'],
          first.io,
        ),
      ).toBe(0);
      expect(first.out.join('\n')).toContain('judged 4 tasks: 1 yes, 3 no, 0 unsure, 0 errors');
      expect(first.out.join('\n')).toContain('tokens 400 in + 40 out; cost unknown');
      expect(first.err.filter((l) => /^\[\d\/4\]/.test(l))).toHaveLength(4);
      expect([...first.out, ...first.err].join('\n')).not.toContain('sk-cli-judge-secret');

      const again = io();
      expect(await command.run([runDir, '--model', 'judge-m', '--base-url', standin.baseUrl], again.io)).toBe(
        0,
      );
      expect(again.err.filter((l) => l.includes('stored verdict reused'))).toHaveLength(4);
      expect(standin.requests).toHaveLength(4);

      const cal = io();
      expect(await command.run(['--calibrate', runDir], cal.io)).toBe(0);
      const text = cal.out.join('\n');
      expect(text).toMatch(/judge yes\s+1\s+0/);
      expect(text).toMatch(/judge no\s+1\s+2/);
      expect(text).toMatch(/judge unsure\s+0\s+0/);
      expect(text).toContain("Cohen's kappa 0.500");
      expect(text).toContain('precision(yes) 100.0%');
      expect(text).toContain('recall(yes) 50.0%');
      expect(text).toContain('demo/b: judge no, reference yes');
    } finally {
      process.env.PROCTOR_API_KEY = saved.key;
      if (saved.key === undefined) delete process.env.PROCTOR_API_KEY;
      process.env.PROCTOR_CONFIG = saved.config;
      if (saved.config === undefined) delete process.env.PROCTOR_CONFIG;
      await standin.close();
    }
  });

  it('refuses bad usage', async () => {
    await expect(command.run([], io().io)).rejects.toThrow(/one run folder/);
    await expect(command.run(['x', '--screenshots', 'some'], io().io)).rejects.toThrow(/all' or 'first-last/);
  });
});
