// Reading the judge's reply: the JSON verdict {reason, sub_scores, complete}, validated against the judge
// schema. Fenced or slightly broken JSON is repaired where the repair is unambiguous (fences, prose around a
// single object, trailing commas, typographic quotes, Python's True/False/None); anything else is refused with
// a message the judge is asked again with.
import { Ajv } from 'ajv';
import type { Completion } from '../../shared/run';

export interface JudgeOutput {
  reason: string;
  subScores: { name: string; evaluation: Completion }[];
  complete: Completion;
}

export type JudgeReply =
  { ok: true; output: JudgeOutput; repairs: string[]; warnings: string[] } | { ok: false; message: string };

/** The judge schema (UFO's EvaluationAgent output; `sub_scores` as a list or as UFO's older name → verdict object). */
export const judgeOutputSchema = {
  type: 'object',
  required: ['reason', 'sub_scores', 'complete'],
  properties: {
    reason: { type: 'string', minLength: 1 },
    sub_scores: {
      oneOf: [
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'evaluation'],
            properties: { name: { type: 'string' }, evaluation: { type: 'string' } },
          },
        },
        { type: 'object', additionalProperties: { type: 'string' } },
      ],
    },
    complete: { type: 'string' },
  },
} as const;

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile(judgeOutputSchema);

/** The one top-level `{…}` of a text (strings respected), or why there is not exactly one. */
function singleObject(
  text: string,
): { ok: true; json: string; trimmed: boolean } | { ok: false; message: string } {
  const objects: [number, number][] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      if (depth > 0) inString = true;
    } else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) objects.push([start, i + 1]);
    }
  }
  if (objects.length === 0)
    return { ok: false, message: depth > 0 ? 'the JSON object is not closed' : 'no JSON object found' };
  if (objects.length > 1)
    return { ok: false, message: `${objects.length} JSON objects found; give exactly one` };
  const [s, e] = objects[0];
  return {
    ok: true,
    json: text.slice(s, e),
    trimmed: text.slice(0, s).trim() !== '' || text.slice(e).trim() !== '',
  };
}

/** Applies a regex replacement outside JSON strings only. */
function outsideStrings(
  json: string,
  pattern: RegExp,
  replace: (match: string) => string,
): { text: string; changed: boolean } {
  let out = '';
  let changed = false;
  let i = 0;
  while (i < json.length) {
    if (json[i] === '"') {
      let j = i + 1;
      while (j < json.length && json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      out += json.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    let j = json.indexOf('"', i);
    if (j < 0) j = json.length;
    const chunk = json.slice(i, j);
    const replaced = chunk.replace(pattern, replace);
    if (replaced !== chunk) changed = true;
    out += replaced;
    i = j;
  }
  return { text: out, changed };
}

function normalise(value: string, what: string, warnings: string[]): Completion {
  const v = value.trim().toLowerCase();
  if (v === 'yes' || v === 'no' || v === 'unsure') {
    if (v !== value) warnings.push(`${what} '${value}' read as '${v}'`);
    return v;
  }
  warnings.push(`${what} '${value}' is not yes / no / unsure; read as 'unsure'`);
  return 'unsure';
}

export function readJudgeReply(reply: string): JudgeReply {
  const repairs: string[] = [];
  let text = reply.replace(/\r\n?/g, '\n');
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text);
  if (fenced) {
    text = fenced[1];
    repairs.push('took the JSON out of a code fence');
  }
  if (/[“”]/.test(text)) {
    text = text.replace(/[“”]/g, '"');
    repairs.push('replaced typographic quotes');
  }
  const one = singleObject(text);
  if (!one.ok) return { ok: false, message: one.message };
  let json = one.json;
  if (one.trimmed) repairs.push('dropped text around the JSON object');

  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    const commas = outsideStrings(json, /,(\s*[}\]])/g, (m) => m.slice(1));
    if (commas.changed) repairs.push('removed trailing commas');
    const literals = outsideStrings(commas.text, /\b(True|False|None)\b/g, (m) =>
      m === 'True' ? 'true' : m === 'False' ? 'false' : 'null',
    );
    if (literals.changed) repairs.push("replaced Python's True/False/None");
    json = literals.text;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      return { ok: false, message: `the reply is not valid JSON (${(error as Error).message})` };
    }
  }
  if (!validate(parsed)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    return {
      ok: false,
      message: `the JSON does not match {reason, sub_scores: [{name, evaluation}], complete}: ${errors}`,
    };
  }
  const p = parsed as {
    reason: string;
    sub_scores: { name: string; evaluation: string }[] | Record<string, string>;
    complete: string;
  };
  const warnings: string[] = [];
  const list = Array.isArray(p.sub_scores)
    ? p.sub_scores
    : Object.entries(p.sub_scores).map(([name, evaluation]) => ({ name, evaluation }));
  if (!Array.isArray(p.sub_scores)) warnings.push('sub_scores given as an object; read as a list');
  const subScores = list.map((s, i) => ({
    name: s.name,
    evaluation: normalise(s.evaluation, `sub_scores[${i}].evaluation`, warnings),
  }));
  return {
    ok: true,
    output: { reason: p.reason, subScores, complete: normalise(p.complete, 'complete', warnings) },
    repairs,
    warnings,
  };
}
