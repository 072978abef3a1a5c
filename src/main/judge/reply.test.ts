import { describe, expect, it } from 'vitest';
import { readJudgeReply } from './reply';

describe('readJudgeReply', () => {
  it('reads a clean verdict without repairs', () => {
    const r = readJudgeReply(
      '{"reason": "ok", "sub_scores": [{"name": "a", "evaluation": "yes"}], "complete": "yes"}',
    );
    expect(r).toEqual({
      ok: true,
      output: { reason: 'ok', subScores: [{ name: 'a', evaluation: 'yes' }], complete: 'yes' },
      repairs: [],
      warnings: [],
    });
  });

  it('repairs typographic quotes and Python literals, but not inside strings', () => {
    const r = readJudgeReply(
      '{“reason”: “True to form, None missing”, "sub_scores": [], "complete": "no", "strict": True}',
    );
    expect(r.ok && r.output.reason).toBe('True to form, None missing');
    expect(r.ok && r.repairs).toEqual(['replaced typographic quotes', "replaced Python's True/False/None"]);
  });

  it('reads UFO sub_scores given as an object, and routes odd verdict words to unsure with a warning', () => {
    const r = readJudgeReply(
      '{"reason": "r", "sub_scores": {"open file": "YES", "save": "partially"}, "complete": "Maybe"}',
    );
    expect(r.ok && r.output).toEqual({
      reason: 'r',
      subScores: [
        { name: 'open file', evaluation: 'yes' },
        { name: 'save', evaluation: 'unsure' },
      ],
      complete: 'unsure',
    });
    expect(r.ok && r.warnings.join('\n')).toMatch(
      /'partially' is not yes \/ no \/ unsure; read as 'unsure'[\s\S]*'Maybe'/,
    );
  });

  it('refuses what cannot be repaired unambiguously, saying why', () => {
    expect(readJudgeReply('yes')).toEqual({ ok: false, message: 'no JSON object found' });
    expect(readJudgeReply('{"reason": "a"')).toEqual({ ok: false, message: 'the JSON object is not closed' });
    expect(readJudgeReply("{'reason': 'single quotes'}")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(readJudgeReply('{"reason": "", "sub_scores": [], "complete": "yes"}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/\/reason/),
    });
    expect(readJudgeReply('{"reason": "x", "complete": 1}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/sub_scores/),
    });
  });
});
