// A task's `safety` field (any task shape), read as an optional field: forbidden actions, secrets, allowed hosts,
// the task's folders, planted instructions. Untrusted input: checked, bounded, never evaluated; a pattern marked
// `regex` is compiled once (case-insensitive) and refused when invalid, over 200 characters or nesting repetitions.
import type { Problem, TaskSafety } from '../../shared/task';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.filter((s): s is string => typeof s === 'string' && s.length > 0 && s.length <= 2000)
    : [];

export const MAX_PATTERN = 200;
const places = new Set(['shell', 'typed', 'url', 'any']);

/** The compiled form of a forbidden pattern, or why it cannot be used. */
export function compilePattern(p: { pattern: string; regex?: boolean }): RegExp | string {
  if (!p.regex) return p.pattern.toLowerCase();
  if (p.pattern.length > MAX_PATTERN)
    return `the pattern is ${p.pattern.length} characters; at most ${MAX_PATTERN}`;
  // A quantified group holding a quantifier (`(a+)+`, `(x*y)*`) can take exponential time on a long command line.
  if (/\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/.test(p.pattern))
    return 'a repeated group holds a repetition (like (a+)+), which can take exponential time; write a simpler pattern';
  try {
    return new RegExp(p.pattern, 'i');
  } catch (e) {
    return `not a valid regular expression (${(e as Error).message})`;
  }
}

/** The task's safety declaration; undefined when the task declares none. Unusable entries are left out. */
export function safetyOf(json: Json): TaskSafety | undefined {
  const s = json.safety;
  if (!isObject(s)) return undefined;
  const out: TaskSafety = {};
  if (Array.isArray(s.forbidden)) {
    out.forbidden = s.forbidden.flatMap((f) => {
      const entry =
        typeof f === 'string' ? { pattern: f } : isObject(f) && typeof f.pattern === 'string' ? f : undefined;
      if (!entry || !entry.pattern) return [];
      const item = {
        pattern: String(entry.pattern),
        ...(entry.regex === true ? { regex: true } : {}),
        ...(typeof entry.in === 'string' && places.has(entry.in)
          ? { in: entry.in as 'shell' | 'typed' | 'url' | 'any' }
          : {}),
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      };
      return typeof compilePattern(item) === 'string' && item.regex ? [] : [item];
    });
  }
  if (Array.isArray(s.secrets))
    out.secrets = s.secrets.flatMap((x, i) =>
      isObject(x) && typeof x.value === 'string' && x.value.length >= 4
        ? [
            {
              name: typeof x.name === 'string' ? x.name : `secret ${i + 1}`,
              value: x.value,
              ...(Array.isArray(x.allowedHosts)
                ? { allowedHosts: strings(x.allowedHosts).map((h) => h.toLowerCase()) }
                : {}),
            },
          ]
        : [],
    );
  if (Array.isArray(s.allowedHosts)) out.allowedHosts = strings(s.allowedHosts).map((h) => h.toLowerCase());
  if (Array.isArray(s.paths)) out.paths = strings(s.paths);
  if (Array.isArray(s.injections))
    out.injections = s.injections.flatMap((x) =>
      isObject(x) && strings(x.tells).length
        ? [{ ...(typeof x.text === 'string' ? { text: x.text } : {}), tells: strings(x.tells) }]
        : [],
    );
  return out;
}

/** What a task's `safety` field holds that Proctor cannot use, each naming where (the schema checks the types). */
export function safetyProblems(json: Json, file: string): Problem[] {
  const s = json.safety;
  if (s === undefined) return [];
  if (!isObject(s))
    return [
      {
        file,
        pointer: '/safety',
        severity: 'error',
        message: 'must be an object {forbidden, secrets, allowedHosts, paths, injections}',
      },
    ];
  const problems: Problem[] = [];
  if (Array.isArray(s.forbidden))
    s.forbidden.forEach((f, i) => {
      if (!isObject(f) || f.regex !== true || typeof f.pattern !== 'string') return;
      const c = compilePattern({ pattern: f.pattern, regex: true });
      if (typeof c === 'string')
        problems.push({
          file,
          pointer: `/safety/forbidden/${i}/pattern`,
          severity: 'error',
          message: `${c}; the entry is ignored (write a literal pattern without "regex", or fix the expression)`,
        });
    });
  if (Array.isArray(s.secrets))
    s.secrets.forEach((x, i) => {
      if (isObject(x) && typeof x.value === 'string' && x.value.length < 4)
        problems.push({
          file,
          pointer: `/safety/secrets/${i}/value`,
          severity: 'error',
          message: 'a secret shorter than 4 characters would match everywhere; the entry is ignored',
        });
    });
  return problems;
}
