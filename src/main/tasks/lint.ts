// Checks beyond the schema on one task file: metric lists that do not line up (errors), unknown setup funcs /
// metrics / getter types (warnings naming the closest known name), and referenced asset files (--check-assets:
// they must exist and stay inside the task's folder, or the examples root for Spider2-V paths).
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Problem } from '../../shared/task';
import { isInside } from '../contained';
import { pointerOf } from '../schemas';
import { collectionOf } from './normalise';
import { unknownName } from './vocabulary';
import { safetyProblems } from './safety-declaration';
import type { FileKind } from './kind';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Evaluator lists: with a list of funcs, result/expected/options must be lists of the same length; with one func, not lists. */
export function metricListProblems(evaluator: Json, base: string, file: string): Problem[] {
  const problems: Problem[] = [];
  const listed = Array.isArray(evaluator.func);
  const n = listed ? (evaluator.func as unknown[]).length : 1;
  for (const key of ['result', 'expected', 'options']) {
    if (!(key in evaluator)) continue;
    const v = evaluator[key];
    const pointer = `${base}/${key}`;
    if (listed && !Array.isArray(v)) {
      problems.push({
        file,
        pointer,
        severity: 'error',
        message: `'func' lists ${n} metrics, so '${key}' must be a list of ${n} entries (one per metric), not a single value`,
      });
    } else if (listed && Array.isArray(v) && v.length !== n) {
      problems.push({
        file,
        pointer,
        severity: 'error',
        message: `'${key}' has ${v.length} entries but 'func' lists ${n} metrics: give one entry per metric, in the same order`,
      });
    } else if (!listed && Array.isArray(v)) {
      problems.push({
        file,
        pointer,
        severity: 'error',
        message: `'func' is a single metric, so '${key}' must be a single value, not a list of ${v.length}`,
      });
    }
  }
  return problems;
}

function nameProblems(json: Json, file: string): Problem[] {
  const problems: Problem[] = [];
  const warn = (pointer: string, message: string | undefined): void => {
    if (message) problems.push({ file, pointer, severity: 'warning', message });
  };
  const steps = (list: unknown, base: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((s, i) => {
      if (!isObject(s)) return;
      const key = typeof s.func === 'string' ? 'func' : 'type';
      if (typeof s[key] === 'string')
        warn(`${base}/${i}/${key}`, unknownName('setup func', s[key] as string));
    });
  };
  steps(json.config, '/config');
  if (isObject(json.evaluation) && typeof json.evaluation.func === 'string') {
    warn('/evaluation/func', unknownName('metric', json.evaluation.func));
  }
  const ev = json.evaluator;
  if (isObject(ev)) {
    steps(ev.postconfig, '/evaluator/postconfig');
    if (typeof ev.func === 'string') warn('/evaluator/func', unknownName('metric', ev.func));
    if (Array.isArray(ev.func))
      ev.func.forEach(
        (f, i) => typeof f === 'string' && warn(`/evaluator/func/${i}`, unknownName('metric', f)),
      );
    for (const key of ['result', 'expected']) {
      const v = ev[key];
      const getters = Array.isArray(v)
        ? v.map((g, i) => [g, `/evaluator/${key}/${i}`] as const)
        : [[v, `/evaluator/${key}`] as const];
      for (const [g, p] of getters)
        if (isObject(g) && typeof g.type === 'string') warn(`${p}/type`, unknownName('getter type', g.type));
    }
  }
  return problems;
}

/** Files a task references beside it: native `local_*` arguments and upload sources; Spider2-V `evaluation_examples/examples/…` paths. */
export function assetReferences(
  json: Json,
  file: string,
): Array<{ pointer: string; path: string; within: string }> {
  const refs: Array<{ pointer: string; path: string; within: string }> = [];
  const taskDir = resolve(file, '..');
  const collection = collectionOf(resolve(file));
  const add = (pointer: string, value: unknown, base: 'task' | 'examples'): void => {
    const entries = Array.isArray(value)
      ? value.map((x, j) => [x, `${pointer}/${j}`] as const)
      : [[value, pointer] as const];
    for (const [v, at] of entries) {
      if (typeof v !== 'string' || v === '') continue;
      if (base === 'task')
        refs.push({ pointer: at, path: isAbsolute(v) ? v : join(taskDir, v), within: taskDir });
      else {
        const m = /^(?:\.\/)?evaluation_examples\/examples\/(.+)$/.exec(v);
        if (m) refs.push({ pointer: at, path: join(collection, m[1]), within: collection });
      }
    }
  };
  const argsOf = (s: Json): Json =>
    isObject(s.arguments) ? s.arguments : isObject(s.parameters) ? s.parameters : {};
  if ('evaluation' in json) {
    // native shape
    (Array.isArray(json.config) ? json.config : []).forEach((s, i) => {
      if (!isObject(s)) return;
      const key = 'arguments' in s ? 'arguments' : 'parameters';
      for (const [k, v] of Object.entries(argsOf(s)))
        if (k.startsWith('local_') || (key === 'parameters' && k === 'src'))
          add(pointerOf('config', i, key, k), v, 'task');
    });
    const ev =
      isObject(json.evaluation) && isObject(json.evaluation.arguments) ? json.evaluation.arguments : {};
    for (const [k, v] of Object.entries(ev))
      if (k.startsWith('local_')) add(pointerOf('evaluation', 'arguments', k), v, 'task');
  } else {
    const walk = (v: unknown, pointer: string): void => {
      if (typeof v === 'string') add(pointer, v, 'examples');
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`));
      else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, pointer + pointerOf(k));
    };
    walk(json.config, '/config');
    walk(json.evaluator, '/evaluator');
  }
  return refs;
}

export interface LintOptions {
  checkAssets?: boolean;
}

/** All checks beyond the schema for one schema-valid task file. */
export function lintTask(json: Json, kind: FileKind, file: string, options: LintOptions = {}): Problem[] {
  const problems: Problem[] = [];
  if (kind !== 'task-native' && isObject(json.evaluator))
    problems.push(...metricListProblems(json.evaluator, '/evaluator', file));
  problems.push(...nameProblems(json, file));
  problems.push(...safetyProblems(json, file));
  if (options.checkAssets) {
    for (const ref of assetReferences(json, file)) {
      if (!isInside(ref.within, ref.path)) {
        problems.push({
          file,
          pointer: ref.pointer,
          severity: 'error',
          message: `referenced file ${ref.path} is outside ${ref.within}: a task may only use files inside its own folder (the runner refuses it)`,
        });
      } else if (!existsSync(ref.path)) {
        problems.push({
          file,
          pointer: ref.pointer,
          severity: 'error',
          message: `referenced file does not exist: ${ref.path} (add it beside the task or fix the path)`,
        });
      }
    }
  }
  return problems;
}
