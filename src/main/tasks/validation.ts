// `proctor validate` as a library: walk paths, detect each JSON file's kind, validate it against its schema and
// the checks beyond it, and report per file. Non-JSON files are skipped; `.jsonl` files are validated line by
// line against the schema their name (events / steps / verdicts / traj .jsonl) or first line says. Run folders
// are validated as runs (manifest, events, steps, verdicts, summaries), never as task folders.
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Problem, Task } from '../../shared/task';
import { manifestProblems } from '../store/manifest-check';
import { duplicateIdProblems, type TaskRef } from './counterparts';
import { expandPaths, isRunFolder, readJsonFile } from './files';
import { files as runFiles } from '../store/layout';
import { RUN_PLAN_FILE } from '../store/run-plan';
import { jsonTypeOf, maxJsonDepth, nestedDeeperThan, parseJsonText } from '../schemas';
import { detectFileKind, detectLinesKind, taskKinds, type FileKind } from './kind';
import { counterpartProblems, resolveSplit, taskFromJson, taskRefOf } from './reader';
import { schemaProblems, type SchemaKind } from '../schemas';
import runEventSchema from '../../../resources/schemas/run-event.schema.json';

export interface ValidateOptions {
  /** Warnings count as errors. */
  strict?: boolean;
  /** Check that files a task references beside it exist. */
  checkAssets?: boolean;
  /**
   * Only task files and split files, run folders passed over: what the task browser shows. Otherwise every
   * known kind is validated, run folders as runs.
   */
  tasksOnly?: boolean;
}

export interface FileReport {
  file: string;
  /** The detected kind; for a `.jsonl` file, the kind of its lines. */
  kind: FileKind;
  valid: boolean;
  problems: Problem[];
}

export interface ValidationReport {
  files: FileReport[];
  /** JSON files of no known kind and non-JSON files: not validated, not counted. */
  skipped: string[];
  summary: { files: number; valid: number; invalid: number; warnings: number };
}

/** Event kinds of run format 1: the kinds resources/schemas/run-event.schema.json checks field by field. */
const knownEventKinds: ReadonlySet<string> = new Set(
  (runEventSchema.allOf as { if: { properties: { kind: { const: string } } } }[]).map(
    (b) => b.if.properties.kind.const,
  ),
);

/** Validate every line of a JSON-lines file; `undefined` when neither its name nor its first line tells its kind. */
async function validateJsonl(file: string): Promise<FileReport | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return {
      file,
      kind: 'unknown',
      valid: false,
      problems: [{ file, severity: 'error', message: `cannot read file: ${(e as Error).message}` }],
    };
  }
  const lines = text.split('\n');
  const firstText = lines.find((l) => l.trim() !== '');
  const first = firstText === undefined ? undefined : parseJsonText(firstText);
  const kind = detectLinesKind(file, first?.ok ? first.value : undefined);
  if (kind === 'unknown') return undefined;
  const problems: Problem[] = [];
  lines.forEach((lineText, i) => {
    if (lineText.trim() === '') return;
    const line = i + 1;
    const parsed = parseJsonText(lineText);
    if (!parsed.ok) {
      const cut = i === lines.length - 1 && !text.endsWith('\n');
      problems.push(
        cut
          ? {
              file,
              line,
              col: parsed.error.col,
              severity: 'warning',
              message: 'the last line is cut short (the writer stopped mid-line); readers ignore it',
            }
          : {
              file,
              line,
              col: parsed.error.col,
              severity: 'error',
              message: `JSON syntax error: ${parsed.error.message}`,
            },
      );
      return;
    }
    if (nestedDeeperThan(parsed.value)) {
      problems.push({
        file,
        line,
        pointer: '',
        severity: 'error',
        message: `nested more than ${maxJsonDepth} levels deep: not checked`,
      });
      return;
    }
    for (const p of schemaProblems(kind as SchemaKind, parsed.value, file)) problems.push({ ...p, line });
    const eventKind = (parsed.value as { kind?: unknown } | null)?.kind;
    if (kind === 'run-event' && typeof eventKind === 'string' && !knownEventKinds.has(eventKind))
      problems.push({
        file,
        line,
        pointer: '/kind',
        severity: 'warning',
        message: `event kind '${eventKind}' is not one of run format 1's: its fields are not checked`,
      });
  });
  return { file, kind, valid: true, problems };
}

/** The files of a run folder that have a schema; everything else in it (cache/, observations/) is an artefact. */
const runFileNames: ReadonlySet<string> = new Set([
  runFiles.manifest,
  RUN_PLAN_FILE,
  runFiles.summary,
  runFiles.events,
  runFiles.steps,
  runFiles.verdicts,
  runFiles.traj,
]);

/** Whether `file` lies in a Proctor run folder (an ancestor holds manifest.json); answers are cached per folder. */
function inRunFolder(file: string, cache: Map<string, boolean>): boolean {
  const seen: string[] = [];
  let dir = dirname(file);
  let found = false;
  for (;;) {
    const known = cache.get(dir);
    if (known !== undefined) {
      found = known;
      break;
    }
    seen.push(dir);
    if (isRunFolder(dir)) {
      found = true;
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of seen) cache.set(d, found);
  return found;
}

export async function validatePaths(
  paths: string[],
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const {
    files,
    problems: missing,
    skipped: passedOver,
  } = await expandPaths(paths, { skipRunFolders: options.tasksOnly });
  const reports: FileReport[] = [...missing, ...passedOver].map((p) => ({
    file: p.file,
    kind: 'unknown',
    valid: false,
    problems: [p],
  }));
  const skipped: string[] = [];
  const tasks: Task[] = [];
  const invalid: TaskRef[] = [];
  const byFile = new Map<string, FileReport>();
  const runFolders = new Map<string, boolean>();
  for (const file of files) {
    const lower = file.toLowerCase();
    if (!runFileNames.has(basename(lower)) && inRunFolder(file, runFolders)) {
      skipped.push(file); // an artefact of a run (a file fetched for grading, an observation)
      continue;
    }
    if (lower.endsWith('.jsonl') && !options.tasksOnly) {
      const report = await validateJsonl(file);
      if (report) reports.push(report);
      else skipped.push(file);
      continue;
    }
    if (!lower.endsWith('.json')) {
      skipped.push(file);
      continue;
    }
    const read = await readJsonFile(file);
    if (!read.ok) {
      reports.push({ file, kind: 'unknown', valid: false, problems: [read.problem] });
      continue;
    }
    const kind = detectFileKind(file, read.value);
    if (kind === 'unknown' || (options.tasksOnly && !taskKinds.has(kind) && kind !== 'split')) {
      const v = read.value;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) skipped.push(file);
      else
        reports.push({
          file,
          kind: 'unknown',
          valid: true,
          problems: [
            {
              file,
              pointer: '',
              severity: 'warning',
              message: `the file is ${jsonTypeOf(v)}${typeof v === 'object' ? '' : ` (${JSON.stringify(v).slice(0, 40)})`}, not a JSON object, so not a file of any kind Proctor knows; not validated`,
            },
          ],
        });
      continue;
    }
    const report: FileReport = { file, kind, valid: true, problems: [] };
    if (taskKinds.has(kind)) {
      const r = taskFromJson(read.value, file, kind as 'task-native', options);
      report.problems.push(...r.problems);
      if (r.task) tasks.push(r.task);
      else {
        const ref = taskRefOf(read.value, file);
        if (ref) invalid.push(ref);
      }
    } else if (kind === 'run-manifest') {
      report.problems.push(...manifestProblems(read.value, file, { runDir: dirname(file) }));
    } else {
      report.problems.push(...schemaProblems(kind, read.value, file));
      if (kind === 'split' && report.problems.length === 0) {
        report.problems.push(...resolveSplit(file, read.value as Record<string, unknown>).problems);
      }
    }
    reports.push(report);
    byFile.set(file, report);
  }
  for (const p of [...duplicateIdProblems(tasks), ...(await counterpartProblems(tasks, invalid))])
    byFile.get(p.file)?.problems.push(p);

  let warnings = 0;
  for (const r of reports) {
    if (options.strict)
      r.problems = r.problems.map((p) => (p.severity === 'warning' ? { ...p, severity: 'error' } : p));
    r.valid = !r.problems.some((p) => p.severity === 'error');
    warnings += r.problems.filter((p) => p.severity === 'warning').length;
  }
  const valid = reports.filter((r) => r.valid).length;
  return {
    files: reports,
    skipped,
    summary: { files: reports.length, valid, invalid: reports.length - valid, warnings },
  };
}

/** One line per problem: `file:/json/pointer: message`, or `file:line:col: message` for syntax errors. */
export function formatProblem(p: Problem, shownFile: string = p.file): string {
  const where =
    p.line !== undefined && p.col !== undefined
      ? `${shownFile}:${p.line}:${p.col}`
      : p.line !== undefined
        ? `${shownFile}:${p.line}${p.pointer !== undefined ? `:${p.pointer || '/'}` : ''}`
        : p.pointer !== undefined
          ? `${shownFile}:${p.pointer || '/'}`
          : shownFile;
  return `${where}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`;
}
