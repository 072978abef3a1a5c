// Runs every model output of corpus/*.json (well-formed, sloppy, hostile, SoM, computer_13) through the parser
// and compares with the expected actions or the expected refusal (line, column, words of the message).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../shared/run';
import { parseAction } from './index';

interface Case {
  name: string;
  space: 'pyautogui' | 'computer_13';
  reply: string | null;
  repeat?: { prefix: string; unit: string; times: number; suffix: string };
  bindings?: Record<string, { x: number; y: number }>;
  expect: { actions: Action[] } | { refused: { line: number; col: number; includes: string } };
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const corpus = files.map((f) => ({
  file: f,
  cases: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Case[],
}));

function replyOf(c: Case): string {
  if (c.repeat) return c.repeat.prefix + c.repeat.unit.repeat(c.repeat.times) + c.repeat.suffix;
  if (typeof c.reply !== 'string') throw new Error(`corpus case '${c.name}' has neither reply nor repeat`);
  return c.reply;
}

describe('the corpus of model outputs', () => {
  it('holds at least 150 outputs, well-formed, sloppy and hostile, with unique names', () => {
    const all = corpus.flatMap((f) => f.cases);
    expect(all.length).toBeGreaterThanOrEqual(150);
    for (const f of corpus) expect(new Set(f.cases.map((c) => c.name)).size, f.file).toBe(f.cases.length);
    for (const kind of ['well-formed.json', 'sloppy.json', 'hostile.json']) expect(files).toContain(kind);
    const hostile = corpus.find((f) => f.file === 'hostile.json')?.cases ?? [];
    expect(hostile.every((c) => 'refused' in c.expect)).toBe(true);
  });

  for (const { file, cases } of corpus) {
    describe(file, () => {
      for (const c of cases) {
        it(c.name, () => {
          const outcome = parseAction(c.space, replyOf(c), { bindings: c.bindings });
          if ('actions' in c.expect) {
            if (!outcome.ok) throw new Error(`expected actions, refused: ${outcome.error.message}`);
            expect(outcome.actions).toEqual(c.expect.actions);
          } else {
            expect(outcome.ok, `expected a refusal, got ${JSON.stringify(outcome)}`).toBe(false);
            if (outcome.ok) return;
            expect(outcome.error.message).toContain(c.expect.refused.includes);
            expect({ line: outcome.error.line, col: outcome.error.col }, outcome.error.message).toEqual({
              line: c.expect.refused.line,
              col: c.expect.refused.col,
            });
          }
        });
      }
    });
  }
});
