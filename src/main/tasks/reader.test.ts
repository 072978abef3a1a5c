import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsShared, repoFixtures, sharedFixtures } from '../testing/shared-fixtures';
import { counterpartOf, linkCounterparts } from './counterparts';
import { loadTasks, readTaskFile } from './reader';

// The single-file tests read the in-repo fixtures; the whole-set counts need the full benchmark fixtures.
const spider = repoFixtures.spider2v;
const native = repoFixtures.seedExamples;
const full = sharedFixtures();
const taskPath = (root: string, app: string, id: string): string => join(root, app, id, `${id}.json`);

describe('readTaskFile', () => {
  it('reads a native task: setup funcs with arguments, one check carrying the evaluation arguments, metadata from tags', async () => {
    const { task, problems } = await readTaskFile(
      taskPath(native, 'jupyter', '00b43a0a-b17b-475d-a482-302efe94d4cc'),
    );
    expect(problems).toEqual([]);
    expect(task).toBeDefined();
    const t = task!;
    expect(t.shape).toBe('native');
    expect(t.app).toBe('jupyter');
    expect(t.domain).toBe('jupyter');
    expect(t.interface).toBe('cli+gui');
    expect(t.style).toBe('verbose');
    expect(t.category).toBe('traditional_data_processing');
    expect(t.actionNumber).toBe(7);
    expect(t.difficulty).toBe('medium');
    expect(t.setup).toHaveLength(5);
    expect(t.setup[0]).toEqual({
      func: 'upload_file_to_vm',
      args: {
        local_path: 'Athletes_summer_games.csv',
        remote_path: '/home/user/Desktop/Athletes_summer_games.csv',
      },
      pointer: '/config/0',
    });
    expect(t.checks).toEqual([
      {
        metric: 'compare_csv',
        options: {},
        args: {
          local_expected: 'gold.csv',
          vm_result: '/home/user/Desktop/allGames.csv',
          ignore_order: true,
        },
        pointer: '/evaluation',
      },
    ]);
    expect(t.counterpart).toBe('cad93c85-d12d-4ba3-83d7-ba4e3ec3bfcc');
    expect(t.needsAccount).toEqual([]);
    expect(t.raw.related_apps).toEqual(['vscode', 'jupyter']);
  });

  it('accepts the older {type, parameters} setup entries in a native file', async () => {
    const { task, problems } = await readTaskFile(
      taskPath(native, 'jupyter', 'a4773fa9-c715-4293-8774-e99caa9d8e7c'),
    );
    expect(problems).toEqual([]);
    const last = task!.setup.at(-1)!;
    expect(last).toEqual({
      func: 'upload_script_and_execute',
      args: { src: 'init.sh', dest: '/home/user/init.sh' },
      pointer: '/config/9',
    });
  });

  it('zips a Spider2-V metric list with its result, expected and options lists, keeping conj', async () => {
    const { task, problems } = await readTaskFile(
      taskPath(join(spider, 'examples'), 'dbt', '1137ff65-39d1-423e-bb70-7ef0a34cb90a'),
    );
    expect(problems).toEqual([]);
    const t = task!;
    expect(t.shape).toBe('spider2v');
    expect(t.interface).toBe('cli');
    expect(t.style).toBe('abstract');
    expect(t.category).toBe('data_transformation');
    expect(t.conj).toBe('and');
    expect(t.checks.map((c) => c.metric)).toEqual(['check_include_exclude', 'check_local_database']);
    expect(t.checks[0].result?.type).toBe('vm_script_output');
    expect(t.checks[0].expected).toEqual({
      type: 'rule',
      rules: { include: ['succeed'], exclude: ['failed'] },
    });
    expect(t.checks[0].options).toEqual({});
    expect(t.checks[1].expected?.type).toBe('local_file');
    expect(t.checks[1].options).toEqual({ db_type: 'duckdb', check_type: ['table-schema-content'] });
    expect(t.checks[1].pointer).toBe('/evaluator/func/1');
  });

  it('reports a task file that is not a task', async () => {
    const { task, problems } = await readTaskFile(join(spider, 'test_one.json'));
    expect(task).toBeUndefined();
    expect(problems[0].message).toMatch(/not a task file.*split/);
  });
});

describe('OSWorld task files that OSWorld runs as they are', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proctor-osworld-lenient-'));
    await mkdir(join(dir, 'examples', 'os'), { recursive: true });
    // no `config` at all: OSWorld runs it with an empty setup
    await writeFile(
      join(dir, 'examples/os/noconf.json'),
      JSON.stringify({
        id: 'noconf',
        snapshot: 'os',
        instruction: 'Set the time zone to UTC',
        source: 'https://help.ubuntu.com',
        evaluator: { func: 'is_utc_0', result: { type: 'vm_command_line', command: 'timedatectl' } },
        a_later_field: [1, 2],
      }),
    );
    // `source` as a list of strings
    await writeFile(
      join(dir, 'examples/os/srclist.json'),
      JSON.stringify({
        id: 'srclist',
        snapshot: 'os',
        instruction: 'Make a folder',
        source: ['https://a.example/x', 'https://b.example/y'],
        config: [],
        evaluator: {
          func: 'exact_match',
          result: { type: 'vm_command_line', command: 'ls' },
          expected: { type: 'rule', rules: { expected: 'x' } },
        },
      }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a task without config as an empty setup, keeping unknown fields', async () => {
    const { task, problems } = await readTaskFile(join(dir, 'examples/os/noconf.json'));
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(task!.shape).toBe('osworld');
    expect(task!.setup).toEqual([]);
    expect(task!.checks.map((c) => c.metric)).toEqual(['is_utc_0']);
    expect(task!.raw.a_later_field).toEqual([1, 2]);
  });

  it('reads a source list as the task sources', async () => {
    const { task, problems } = await readTaskFile(join(dir, 'examples/os/srclist.json'));
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(task!.shape).toBe('osworld');
    expect(task!.source).toEqual(['https://a.example/x', 'https://b.example/y']);
  });
});

describe('an OSWorld flat task written by the test', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proctor-osworld-'));
    await mkdir(join(dir, 'examples', 'chrome'), { recursive: true });
    const base = {
      snapshot: 'chrome',
      instruction: 'Open the bookmarks',
      source: 'https://support.google.com/chrome',
      config: [{ type: 'launch', parameters: { command: ['google-chrome'] } }],
      trajectory: 'trajectories/',
      related_apps: ['chrome'],
      proxy: true,
      fixed_ip: false,
      possibility_of_env_change: 'low',
      a_field_nobody_knows: { kept: 1 },
    };
    await writeFile(
      join(dir, 'examples/chrome/0a1b.json'),
      JSON.stringify({
        ...base,
        id: '0a1b',
        evaluator: {
          func: 'is_expected_bookmarks',
          result: { type: 'bookmarks' },
          expected: { type: 'rule', rules: { type: 'bookmark_bar_folders_names', names: ['Favorites'] } },
          postconfig: [{ type: 'sleep', parameters: { seconds: 2 } }],
        },
      }),
    );
    await writeFile(
      join(dir, 'examples/chrome/0a1c.json'),
      JSON.stringify({ ...base, id: '0a1c', proxy: false, evaluator: { func: 'infeasible' } }),
    );
    await writeFile(join(dir, 'test_small.json'), JSON.stringify({ chrome: ['0a1b'] }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the flat layout: source string, proxy, post-setup, unknown fields kept, no tags', async () => {
    const { task, problems } = await readTaskFile(join(dir, 'examples/chrome/0a1b.json'));
    expect(problems).toEqual([]);
    const t = task!;
    expect(t.shape).toBe('osworld');
    expect(t.domain).toBe('chrome');
    expect(t.source).toEqual(['https://support.google.com/chrome']);
    expect(t.needsProxy).toBe(true);
    expect(t.tags).toEqual([]);
    expect(t.interface).toBeUndefined();
    expect(t.difficulty).toBeUndefined();
    expect(t.postSetup).toEqual([
      { func: 'sleep', args: { seconds: 2 }, pointer: '/evaluator/postconfig/0' },
    ]);
    expect(t.checks[0].result).toEqual({ type: 'bookmarks' });
    expect(t.raw.a_field_nobody_knows).toEqual({ kept: 1 });
  });

  it('marks an evaluator func of infeasible as an infeasible task without checks', async () => {
    const { task } = await readTaskFile(join(dir, 'examples/chrome/0a1c.json'));
    expect(task!.infeasible).toBe(true);
    expect(task!.checks).toEqual([]);
    expect(task!.needsProxy).toBe(false);
  });

  it('resolves a split file in the flat layout', async () => {
    const { tasks, problems } = await loadTasks([join(dir, 'test_small.json')]);
    expect(problems).toEqual([]);
    expect(tasks.map((t) => t.id)).toEqual(['0a1b']);
  });
});

describe('loadTasks on the full fixtures', () => {
  const spider = full?.spider2v ?? '';
  const native = full?.seedExamples ?? '';
  it.skipIf(!full)(
    `loads all 538 tasks from both folders; ids only clash within a collection, so the shared ids are not duplicates (${needsShared})`,
    async () => {
      const { tasks, problems, files } = await loadTasks([join(spider, 'examples'), native]);
      expect(files).toBe(538);
      expect(tasks).toHaveLength(538);
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(problems.filter((p) => /duplicate id/.test(p.message))).toEqual([]);
      // the native set's real defect: a task whose counterpart is its own id
      const self = problems.filter((p) => /own id/.test(p.message));
      expect(self).toHaveLength(1);
      expect(self[0].file).toContain('5085517b-69e9-467a-897b-21b8fd926bde');
    },
  );

  it.skipIf(!full)(
    `needs an account exactly for the tasks tagged account, naming the service (${needsShared})`,
    async () => {
      const { tasks } = await loadTasks([join(spider, 'examples')]);
      const tagged = tasks.filter((t) => t.tags.includes('account'));
      expect(tagged).toHaveLength(170);
      for (const t of tasks) expect(t.needsAccount.length > 0).toBe(t.tags.includes('account'));
      const byApp = (app: string): string[] =>
        [...new Set(tasks.filter((t) => t.app === app).flatMap((t) => t.needsAccount))].sort();
      expect(byApp('servicenow')).toEqual(['servicenow']);
      expect(byApp('bigquery')).toEqual(['google']);
      expect(byApp('dbt')).toEqual(['dbt_cloud', 'google']);
      expect(byApp('snowflake')).toEqual(['hasura', 'snowflake']);
      expect(byApp('excel')).toEqual([]);
    },
  );

  it.skipIf(!full)(`selects the tasks a split file lists (${needsShared})`, async () => {
    const one = await loadTasks([join(spider, 'test_one.json')]);
    expect(one.tasks.map((t) => t.id)).toEqual(['22ef9058-6188-422a-9c12-e6934e4ed936']);
    expect(one.tasks[0].app).toBe('dagster');
    const all = await loadTasks([join(spider, 'test_all.json')]);
    expect(all.tasks).toHaveLength(494);
    expect(all.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it.skipIf(!full)(
    `pairs every verbose Spider2-V task with its abstract counterpart, both ways (${needsShared})`,
    async () => {
      const { tasks } = await loadTasks([join(spider, 'examples')]);
      const links = linkCounterparts(tasks);
      expect(links.problems).toEqual([]);
      expect(links.pairs).toHaveLength(247);
      for (const { verbose, abstract } of links.pairs) {
        expect(verbose.style).toBe('verbose');
        expect(abstract.style).toBe('abstract');
        expect(counterpartOf(links, verbose)).toBe(abstract);
        expect(counterpartOf(links, abstract)).toBe(verbose);
      }
    },
  );
});

describe('loadTasks on the in-repo fixtures', () => {
  it('loads all 28 tasks from both folders; ids only clash within a collection, so the shared ids are not duplicates', async () => {
    const { tasks, problems, files } = await loadTasks([join(spider, 'examples'), native]);
    expect(files).toBe(28);
    expect(tasks).toHaveLength(28);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems.filter((p) => /duplicate id/.test(p.message))).toEqual([]);
    // the native set's real defect: a task whose counterpart is its own id, and the task pointing at it
    const self = problems.filter((p) => /own id/.test(p.message));
    expect(self).toHaveLength(1);
    expect(self[0].file).toContain('5085517b-69e9-467a-897b-21b8fd926bde');
    const back = problems.filter((p) => /does not point back/.test(p.message));
    expect(back.map((p) => p.file)).toEqual([
      expect.stringContaining('99a0ef1f-7415-477b-8c85-5f3671761ab6'),
    ]);
  });

  it('needs an account exactly for the tasks tagged account, naming the service', async () => {
    const { tasks } = await loadTasks([join(spider, 'examples')]);
    const tagged = tasks.filter((t) => t.tags.includes('account'));
    expect(tagged).toHaveLength(4);
    for (const t of tasks) expect(t.needsAccount.length > 0).toBe(t.tags.includes('account'));
    const byApp = (app: string): string[] =>
      [...new Set(tasks.filter((t) => t.app === app).flatMap((t) => t.needsAccount))].sort();
    expect(byApp('servicenow')).toEqual(['servicenow']);
    expect(byApp('bigquery')).toEqual(['google']);
    expect(byApp('excel')).toEqual([]);
  });

  it('selects the tasks a split file lists', async () => {
    const one = await loadTasks([join(spider, 'test_one.json')]);
    expect(one.tasks.map((t) => t.id)).toEqual(['22ef9058-6188-422a-9c12-e6934e4ed936']);
    expect(one.tasks[0].app).toBe('dagster');
    expect(one.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('pairs every verbose Spider2-V task with its abstract counterpart, both ways', async () => {
    const { tasks } = await loadTasks([join(spider, 'examples')]);
    const links = linkCounterparts(tasks);
    expect(links.problems).toEqual([]);
    expect(links.pairs).toHaveLength(8);
    for (const { verbose, abstract } of links.pairs) {
      expect(verbose.style).toBe('verbose');
      expect(abstract.style).toBe('abstract');
      expect(counterpartOf(links, verbose)).toBe(abstract);
      expect(counterpartOf(links, abstract)).toBe(verbose);
    }
  });
});
