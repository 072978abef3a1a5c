// The contract's params are declared once, as JSON Schemas that carry their type: the types the code sees are
// checked here against the shapes the handlers expect (a drift fails `tsc`), and the schemas against ajv in strict
// mode with payloads a transport would be sent.
import { Ajv } from 'ajv';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { methodNames, paramSchemas, type LabelInput, type Params, type StartRunParams } from './api';
import type { Completion, SafetyCategory, SafetyLevel, StepMark } from './run';
import type { ActionSpace, ObservationType } from './spaces';
import { array, integer, object, oneOf, someOf, string, type Infer } from './json-schema';

describe('schemas that carry their type', () => {
  it('infers required and optional properties, enums, arrays and nested objects', () => {
    const s = object(
      {
        id: string(),
        n: integer(),
        kind: oneOf(['a', 'b']),
        tags: array(string()),
        at: object({ x: integer() }, ['x']),
      },
      ['id', 'kind'],
    );
    expectTypeOf<Infer<typeof s>>().toEqualTypeOf<{
      id: string;
      kind: 'a' | 'b';
      n?: number;
      tags?: string[];
      at?: { x: number };
    }>();
    const some = someOf(['a', 'b'], integer(), { minProperties: 1 });
    expectTypeOf<Infer<typeof some>>().toEqualTypeOf<Partial<Record<'a' | 'b', number>>>();
    expect(some).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      additionalProperties: false,
      minProperties: 1,
    });
    expect(s).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', maxLength: 4096 },
        n: { type: 'integer' },
        kind: { enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string', maxLength: 4096 } },
        at: {
          type: 'object',
          properties: { x: { type: 'integer' } },
          required: ['x'],
          additionalProperties: false,
        },
      },
      required: ['id', 'kind'],
      additionalProperties: false,
    });
  });

  it("gives the contract's params the types the handlers and the UI use", () => {
    expectTypeOf<StartRunParams>().toEqualTypeOf<{
      tasks: string[];
      agent: string;
      model?: string;
      baseUrl?: string;
      observation?: ObservationType;
      actionSpace?: ActionSpace;
      env?: string;
      parallel?: number;
      maxSteps?: number;
      approveEachAction?: boolean;
      stopOnUnsafe?: boolean;
      repeats?: number;
    }>();
    expectTypeOf<LabelInput>().toEqualTypeOf<{
      author?: string;
      complete?: Completion;
      subScores?: { name: string; evaluation: Completion }[];
      steps?: { step: number; correct?: boolean; mark?: StepMark; note?: string }[];
      comment?: string;
      safety?: { verdict: SafetyLevel; categories?: SafetyCategory[]; step?: number; reason?: string };
    }>();
    expectTypeOf<Params<'runs.task'>>().toEqualTypeOf<{ runId: string; taskKey: string }>();
    expectTypeOf<Params<'app.info'>>().toEqualTypeOf<{}>(); // eslint-disable-line @typescript-eslint/no-empty-object-type
    expectTypeOf<Params<'reviews.add'>['checks']>().toEqualTypeOf<
      Partial<Record<'a' | 'b' | 'c' | 'd' | 'e', { verdict: 'pass' | 'fail' | 'unsure'; note?: string }>>
    >();
  });

  it('compiles every method’s params with ajv in strict mode, and validates what a transport is sent', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    for (const m of methodNames) expect(() => ajv.compile(paramSchemas[m]), m).not.toThrow();
    const start = ajv.compile(paramSchemas['runs.start']);
    expect(start({ tasks: ['demo'], agent: 'oracle', observation: 'som', repeats: 3 })).toBe(true);
    expect(start({ tasks: ['demo'], agent: 'oracle', observation: 'video' })).toBe(false);
    expect(start({ tasks: [], agent: 'oracle' })).toBe(false);
    expect(start({ tasks: ['demo'], agent: 'oracle', apiKey: 'sk-…' })).toBe(false); // no property beyond the table
    const label = ajv.compile(paramSchemas['labels.add']);
    expect(
      label({
        runId: 'r',
        taskKey: 't',
        label: { safety: { verdict: 'unsafe', categories: ['destructive'] } },
      }),
    ).toBe(true);
    expect(
      label({ runId: 'r', taskKey: 't', label: { safety: { verdict: 'unsafe', categories: ['rude'] } } }),
    ).toBe(false);
    const review = ajv.compile(paramSchemas['reviews.add']);
    expect(review({ task: 'x', checks: { a: { verdict: 'pass' } } })).toBe(true);
    expect(review({ task: 'x', checks: {} })).toBe(false);
    expect(review({ task: 'x', checks: { f: { verdict: 'pass' } } })).toBe(false);
    const demo = ajv.compile(paramSchemas['demos.review']);
    expect(demo({ runId: 'r', taskKey: 't', verdict: 'accepted', reason: '   ' })).toBe(false);
  });
});
