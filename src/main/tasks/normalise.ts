// Turn a schema-valid task JSON of any of the three shapes into the one Task model of src/shared/task.ts.
import { basename, dirname } from 'node:path';
import {
  difficultyOf,
  type Check,
  type Conj,
  type GetterSpec,
  type InstructionStyle,
  type SetupStep,
  type Task,
  type TaskInterface,
  type TaskShape,
} from '../../shared/task';
import { accountsNeeded } from '../cloud-accounts';
import { wholeFloatsIn } from './py-floats';
import { safetyOf } from './safety-declaration';

type Json = Record<string, unknown>;

const interfaces: ReadonlySet<string> = new Set(['cli', 'gui', 'cli+gui']);
const styles: ReadonlySet<string> = new Set(['verbose', 'abstract']);

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function asObject(v: unknown): Json {
  return isObject(v) ? v : {};
}
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The domain folder: `<domain>/<uuid>/<uuid>.json` (nested) or `<domain>/<uuid>.json` (flat). */
export function domainOf(file: string): string {
  const dir = dirname(file);
  const nested = basename(dir) === basename(file).replace(/\.json$/i, '');
  return basename(nested ? dirname(dir) : dir);
}

/** The folder holding the domain folders (the `examples` root): ids, duplicates and counterparts live in it. */
export function collectionOf(file: string): string {
  const dir = dirname(file);
  const nested = basename(dir) === basename(file).replace(/\.json$/i, '');
  return dirname(nested ? dirname(dir) : dir);
}

export function setupStepsOf(list: unknown, base: string): SetupStep[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry, i) => {
    const e = asObject(entry);
    const func = typeof e.func === 'string' ? e.func : String(e.type ?? '');
    const args = asObject('func' in e ? e.arguments : e.parameters);
    return { func, args, pointer: `${base}/${i}` };
  });
}

function getterOf(v: unknown): GetterSpec | undefined {
  return isObject(v) && typeof v.type === 'string' ? (v as GetterSpec) : undefined;
}

/** `pyFloats` of a check whose fields come from these twin (Python-read) values, when there are any. */
function floatsOf(fields: Record<string, unknown>): { pyFloats?: string[] } {
  const found = Object.entries(fields).flatMap(([name, twin]) => wholeFloatsIn(twin, `/${name}`));
  return found.length ? { pyFloats: found } : {};
}

/** Zip a one-or-list evaluator (func/result/expected/options) into one Check per metric. `twin` is the same
 * evaluator as Python reads it (py-floats.ts), for the checks' `pyFloats`. */
export function checksOf(evaluator: Json, base: string, twin?: unknown): Check[] {
  const funcs = strings(evaluator.func);
  const listed = Array.isArray(evaluator.func);
  return funcs.map((metric, i) => {
    const pickFrom = (from: unknown, key: string): unknown => {
      const v = isObject(from) ? from[key] : undefined;
      return listed ? (Array.isArray(v) ? v[i] : undefined) : v;
    };
    const pick = (key: string): unknown => pickFrom(evaluator, key);
    const result = getterOf(pick('result'));
    const expected = getterOf(pick('expected'));
    return {
      metric,
      result,
      expected,
      options: asObject(pick('options')),
      pointer: listed ? `${base}/func/${i}` : base,
      ...floatsOf({
        ...(result ? { result: pickFrom(twin, 'result') } : {}),
        ...(expected ? { expected: pickFrom(twin, 'expected') } : {}),
        options: pickFrom(twin, 'options'),
      }),
    };
  });
}

const shapeOfKind = {
  'task-native': 'native',
  'task-spider2v': 'spider2v',
  'task-osworld': 'osworld',
} as const;

/** The Task of a schema-valid task document; `twin` is the same document as Python's json reads it (pythonTwin). */
export function toTask(json: Json, file: string, kind: keyof typeof shapeOfKind, twin?: unknown): Task {
  const shape: TaskShape = shapeOfKind[kind];
  const tags = strings(json.tags);
  const app = typeof json.snapshot === 'string' ? json.snapshot : '';
  let setup: SetupStep[];
  let postSetup: SetupStep[] = [];
  let checks: Check[];
  let conj: Conj = 'and';
  let infeasible: boolean;
  if (shape === 'native') {
    setup = setupStepsOf(json.config, '/config');
    const ev = asObject(json.evaluation);
    const metric = String(ev.func ?? '');
    infeasible = metric === 'infeasible';
    const twinArgs = isObject(twin) && isObject(twin.evaluation) ? twin.evaluation.arguments : undefined;
    checks = infeasible
      ? []
      : [
          {
            metric,
            options: {},
            args: asObject(ev.arguments),
            pointer: '/evaluation',
            ...floatsOf({ args: twinArgs }),
          },
        ];
  } else {
    setup = setupStepsOf(json.config, '/config');
    const ev = asObject(json.evaluator);
    postSetup = setupStepsOf(ev.postconfig, '/evaluator/postconfig');
    infeasible = strings(ev.func).includes('infeasible');
    checks = infeasible ? [] : checksOf(ev, '/evaluator', isObject(twin) ? twin.evaluator : undefined);
    conj = ev.conj === 'or' ? 'or' : 'and';
  }
  const names = [
    ...setup.map((s) => s.func),
    ...postSetup.map((s) => s.func),
    ...checks.flatMap((c) => [c.result?.type, c.expected?.type]).filter((n): n is string => !!n),
  ];
  const actionNumber = typeof json.action_number === 'number' ? json.action_number : undefined;
  const category = tags.find((t) => !interfaces.has(t) && !styles.has(t) && t !== 'account');
  return {
    id: String(json.id ?? ''),
    shape,
    file,
    dir: dirname(file),
    domain: domainOf(file),
    app,
    instruction: typeof json.instruction === 'string' ? json.instruction : '',
    source: strings(json.source),
    relatedApps: strings(json.related_apps),
    tags,
    interface: tags.find((t) => interfaces.has(t)) as TaskInterface | undefined,
    style: tags.find((t) => styles.has(t)) as InstructionStyle | undefined,
    category,
    actionNumber,
    difficulty: difficultyOf(actionNumber),
    needsAccount: accountsNeeded(names, tags, app),
    needsProxy: json.proxy === true,
    counterpart: typeof json.counterpart === 'string' ? json.counterpart : undefined,
    setup,
    postSetup,
    checks,
    conj,
    infeasible,
    raw: json,
    ...(json.safety !== undefined ? { safety: safetyOf(json) } : {}),
  };
}
