// tasks.open / tasks.get: a folder's tasks as the task browser shows them, with their validation problems.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiHandlers, TaskSummary } from '../../shared/api';
import type { Problem, Task } from '../../shared/task';
import { loadTasks } from '../tasks/reader';
import { validatePaths } from '../tasks/validation';
import { isInside } from '../contained';
import { ApiRequestError } from './dispatch';
import { relativeToRoot, resolveBelow } from './paths';

type TaskMethods = Pick<ApiHandlers, 'tasks.open' | 'tasks.get'>;

function summarise(root: string, task: Task, problems: Problem[]): TaskSummary {
  const { raw: _raw, file, dir: _dir, ...rest } = task;
  return {
    ...rest,
    path: relativeToRoot(root, file),
    problems: problems.map((p) => ({ ...p, file: relativeToRoot(root, p.file) })),
  };
}

export function taskHandlers(root: string): TaskMethods {
  return {
    'tasks.open': async ({ path }) => {
      const folder = resolveBelow(root, path);
      if (!existsSync(folder)) throw new ApiRequestError('not_found', `no folder '${path}'`);
      const [loaded, report] = await Promise.all([
        loadTasks([folder]),
        validatePaths([folder], { checkAssets: false, tasksOnly: true }),
      ]);
      const problems = report.files.flatMap((f) => f.problems);
      const byFile = new Map<string, Problem[]>();
      for (const p of problems) {
        const list = byFile.get(p.file) ?? [];
        list.push(p);
        byFile.set(p.file, list);
      }
      const taskFiles = new Set(loaded.tasks.map((t) => t.file));
      const tasks = loaded.tasks.map((t) => summarise(root, t, byFile.get(t.file) ?? []));
      const others = problems
        .filter((p) => !taskFiles.has(p.file))
        .map((p) => ({ ...p, file: relativeToRoot(root, p.file) }));
      return { path: relativeToRoot(root, folder), tasks, problems: others };
    },
    'tasks.get': async ({ path }) => {
      const file = resolveBelow(root, path);
      if (!existsSync(file) || !statSync(file).isFile())
        throw new ApiRequestError('not_found', `no task file '${path}'`);
      const [loaded, report] = await Promise.all([
        loadTasks([file]),
        validatePaths([file], { checkAssets: true, tasksOnly: true }),
      ]);
      const problems = report.files.flatMap((f) => f.problems);
      const task = loaded.tasks[0];
      if (!task) {
        const why = [...loaded.problems, ...problems].map((p) => p.message).join('; ');
        throw new ApiRequestError('bad_request', `'${path}' is not a readable task: ${why}`);
      }
      const verbose = join(dirname(file), 'verbose_instruction.txt');
      return {
        task: summarise(root, task, problems),
        raw: task.raw,
        verboseInstruction:
          existsSync(verbose) && isInside(dirname(file), verbose)
            ? readFileSync(verbose, 'utf8').slice(0, 200_000)
            : undefined,
      };
    },
  };
}
