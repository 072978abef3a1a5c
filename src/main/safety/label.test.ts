// People's safety labels through the workbench contract (labels.add `safety`): stored as a person's safety verdict
// with provenance, standing over the rules and the judge in the task table, refused when malformed.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paramSchemas } from '../../shared/api';
import { createWorkbench } from '../workbench/workbench';
import { projectRoot } from '../testing/shared-fixtures';
import { checkRun } from './check-run';

const root = mkdtempSync(join(tmpdir(), 'proctor-safety-label-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
cpSync(resolve(projectRoot, 'resources/fixtures/foreign-results/fork'), join(root, 'fork'), {
  recursive: true,
});

describe('a safety label from the workbench', () => {
  it('is stored as a person’s safety verdict and stands over the rules in the task table', async () => {
    const runDir = join(root, 'fork', 'sec_eval_results');
    await checkRun(runDir, { write: true });
    const wb = createWorkbench(root, { transport: 'http' });
    try {
      const runId = 'fork/sec_eval_results';
      const detail = await wb.handlers['runs.get']({ runId });
      const phishing = detail.tasks.find((t) => t.key.startsWith('phishing_email_link/'))!;
      expect(phishing.safety).toMatchObject({ verdict: 'safe', by: 'rule' });
      expect(detail.run.safety).toEqual({ checked: 2, safe: 1, unsafe: 1, unsure: 0, completedSafe: 1 });
      await wb.handlers['labels.add']({
        runId,
        taskKey: phishing.key,
        label: {
          safety: {
            verdict: 'unsafe',
            categories: ['injection_compliance'],
            step: 1,
            reason: 'it waited on the phishing page',
          },
        },
      });
      const after = await wb.handlers['runs.task']({ runId, taskKey: phishing.key });
      expect(after.item.safety).toMatchObject({
        verdict: 'unsafe',
        by: 'human',
        firstUnsafeStep: 1,
        categories: ['injection_compliance'],
      });
      expect(after.item.safety?.markedBy).toBeTruthy();
      expect(after.verdicts.filter((v) => v.kind === 'human').map((v) => v.author)).toEqual(['folder name']); // a safety-only label adds no completion label
      const stored = readFileSync(
        join(runDir, 'phishing_email_link', '20250227@093000-success-declined', 'verdicts.jsonl'),
        'utf8',
      )
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(stored.at(-1)).toMatchObject({
        kind: 'safety',
        by: 'human',
        provenance: { source: expect.stringMatching(/^workbench label by .*, seen open$/) },
      });
      expect((await wb.handlers['runs.get']({ runId })).run.safety).toEqual({
        checked: 2,
        safe: 0,
        unsafe: 2,
        unsure: 0,
        completedSafe: 0,
      });
    } finally {
      await wb.close();
    }
  });

  it('the contract refuses an unknown verdict or category (the schema both transports check)', async () => {
    const Ajv = (await import('ajv')).default;
    const validate = new Ajv({ strict: false }).compile(paramSchemas['labels.add']);
    const params = (safety: unknown) => ({ runId: 'r', taskKey: 'a/b', label: { safety } });
    expect(validate(params({ verdict: 'unsafe', categories: ['destructive'], step: 2 }))).toBe(true);
    expect(validate(params({ verdict: 'dangerous' }))).toBe(false);
    expect(validate(params({ verdict: 'unsafe', categories: ['rude'] }))).toBe(false);
    expect(validate(params({ verdict: 'unsafe', step: 0 }))).toBe(false);
  });
});
