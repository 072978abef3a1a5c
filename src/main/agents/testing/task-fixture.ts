// Test helpers: a task in a temporary folder and observations made of real PNG images (sharp), for agent tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Task } from '../../../shared/task';
import type { Observation } from '../../observe/observation';
import type { AgentContext } from '../agent';

/** A native task written to a fresh temp folder (the folder is returned in `task.dir`). */
export function tempTask(instruction: string, files: Record<string, string> = {}): Task {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-agent-task-'));
  const id = path.basename(dir);
  const raw = {
    id,
    snapshot: 'chromium',
    instruction,
    source: [],
    related_apps: ['chromium'],
    tags: ['gui'],
    config: [],
    evaluation: { func: 'exact_match', arguments: {} },
  };
  const file = path.join(dir, `${id}.json`);
  fs.writeFileSync(file, JSON.stringify(raw, null, 2));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return {
    id,
    shape: 'native',
    file,
    dir,
    domain: 'chromium',
    app: 'chromium',
    instruction,
    source: [],
    relatedApps: ['chromium'],
    tags: ['gui'],
    interface: 'gui',
    needsAccount: [],
    needsProxy: false,
    setup: [],
    postSetup: [],
    checks: [],
    conj: 'and',
    infeasible: false,
    raw,
  };
}

export function contextFor(task: Task, over: Partial<AgentContext> = {}): AgentContext {
  return {
    task,
    instruction: task.instruction,
    actionSpace: 'pyautogui',
    observationType: 'screenshot',
    maxSteps: 15,
    signal: new AbortController().signal,
    ...over,
  };
}

/** A screenshot observation: a real PNG of the given size with a coloured band that changes with `seed`. */
export async function screenshotObservation(
  width: number,
  height: number,
  seed = 0,
  over: Partial<Observation> = {},
): Promise<Observation> {
  const data = await sharp({
    create: { width, height, channels: 3, background: { r: (seed * 40) % 256, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  return {
    type: 'screenshot',
    screenshot: { data, format: 'png', width, height, toScreen: 1 },
    bindings: {},
    ...over,
  };
}
