import { describe, expect, it } from 'vitest';
import type { Task } from '../../shared/task';
import { taskFilePath } from './task-files';

const task = (file: string, dir: string) => ({ file, dir, id: 'u1' }) as unknown as Task;

describe('task files named relative to the upstream repository', () => {
  it('finds them beside a nested Spider2-V task (examples/<app>/<uuid>/<uuid>.json)', () => {
    const t = task(
      '/b/evaluation_examples/examples/excel/u1/u1.json',
      '/b/evaluation_examples/examples/excel/u1',
    );
    expect(taskFilePath(t, 'evaluation_examples/examples/excel/u1/gold.xlsx')).toBe(
      '/b/evaluation_examples/examples/excel/u1/gold.xlsx',
    );
    expect(taskFilePath(t, 'evaluation_examples/settings/x.json')).toBe(
      '/b/evaluation_examples/settings/x.json',
    );
  });

  it("finds them from a flat OSWorld task (examples/<domain>/<uuid>.json), whose folder is the domain's", () => {
    const t = task('/o/evaluation_examples/examples/os/u1.json', '/o/evaluation_examples/examples/os');
    expect(taskFilePath(t, 'evaluation_examples/examples/os/u1/a.txt')).toBe(
      '/o/evaluation_examples/examples/os/u1/a.txt',
    );
    expect(taskFilePath(t, 'evaluation_examples/settings/x.json')).toBe(
      '/o/evaluation_examples/settings/x.json',
    );
  });

  it('refuses a name that climbs out of the task set', () => {
    const t = task('/o/evaluation_examples/examples/os/u1.json', '/o/evaluation_examples/examples/os');
    expect(() => taskFilePath(t, 'evaluation_examples/../../etc/passwd')).toThrow(/outside the task folder/);
  });
});
