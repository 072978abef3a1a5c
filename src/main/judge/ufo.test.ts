import fs from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { JudgeVerdict } from '../../shared/run';
import { ufoExecutionSchema as schemaFile } from '../testing/shared-fixtures';
import { executionResultOf } from './ufo';

const verdict: JudgeVerdict = {
  kind: 'judge',
  reason: 'Saved.',
  subScores: [
    { name: 'open', evaluation: 'yes' },
    { name: 'open', evaluation: 'no' },
  ],
  complete: 'no',
  model: 'm',
  options: {},
  at: '2026-01-01T00:00:00Z',
};

describe('UFO execution_result form', () => {
  it('writes sub_scores as the schema object, keeping repeated names apart, and errors as {type, message, traceback}', () => {
    expect(executionResultOf(verdict)).toEqual({
      result: { reason: 'Saved.', sub_scores: { open: 'yes', 'open (2)': 'no' }, complete: 'no' },
      error: null,
    });
    expect(executionResultOf({ ...verdict, error: 'model error: HTTP 500' })).toEqual({
      result: null,
      error: { type: 'JudgeError', message: 'model error: HTTP 500', traceback: '' },
    });
  });

  it("validates against UFO's execution schema (the in-repo copy, fixtures/ufo)", () => {
    const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as {
      properties: { execution_result: object };
    };
    const validate = new Ajv({ strict: false }).compile(schema.properties.execution_result);
    expect(validate(executionResultOf(verdict)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(executionResultOf({ ...verdict, error: 'x' })), JSON.stringify(validate.errors)).toBe(
      true,
    );
    expect(
      validate({
        result: { reason: 'r', sub_scores: [{ name: 'a', evaluation: 'yes' }], complete: 'yes' },
        error: null,
      }),
    ).toBe(false);
  });
});
