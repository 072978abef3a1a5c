// Faithful grading: (result file, expected file, options) → the upstream verdict under each profile, with the
// upstream behaviour that decides each case, and the robust second opinion beside it.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { tempDir } from './testing/fixtures';
import { tryMetric } from './try-metric';
import { departures, variants } from './catalog';
import type { GradingProfile } from './profile';

const tmp = tempDir();
afterAll(tmp.cleanup);
let n = 0;
function file(content: string | Buffer, ext = 'csv'): string {
  const path = join(tmp.dir, `f${n++}.${ext}`);
  writeFileSync(path, content);
  return path;
}

interface Case {
  name: string;
  result: string | Buffer;
  expected: string | Buffer;
  options?: Record<string, unknown>;
  /** The verdict of each profile's upstream metric. */
  upstream: Record<GradingProfile, number>;
  /** Proctor's robust reading (the second opinion). */
  robust: number;
  /** The upstream behaviour that decides the case. */
  because: string;
  /** The brittle flag's named difference, when the profile under test disagrees with robust. */
  flag?: string;
}

const gold = 'region,total\nEast,10\nWest,5\n';

const csvCases: Case[] = [
  {
    name: 'identical files',
    result: gold,
    expected: gold,
    upstream: { spider2v: 1, osworld: 1, native: 1 },
    robust: 1,
    because: 'equal lines, equal frames',
  },
  {
    name: 'cells quoted while the gold is unquoted',
    result: '"region","total"\n"East","10"\n"West","5"\n',
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 1 },
    robust: 1,
    because:
      'Spider2-V/OSWorld compare raw text lines (quotes are characters); pandas read_csv drops quotes and infers 10 as int64',
    flag: 'quoted cells',
  },
  {
    name: 'an extra trailing blank line',
    result: gold + '\n',
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 1 },
    robust: 1,
    because: "str.splitlines() keeps the empty last line ('…\\n\\n' → [..., '']); read_csv skips blank lines",
    flag: 'trailing blank line',
  },
  {
    name: 'a blank line between records',
    result: 'region,total\nEast,10\n\nWest,5\n',
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 1 },
    robust: 1,
    because: 'the empty line is a list element of its own; read_csv skip_blank_lines=True',
    flag: 'blank line between records',
  },
  {
    name: 'a UTF-8 byte-order mark',
    result: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(gold)]),
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 1 },
    robust: 1,
    because:
      "open() with utf-8 keeps U+FEFF in the first line (OSWorld tries 'utf-8' before 'utf-8-sig'); read_csv skips the mark",
    flag: 'byte-order mark',
  },
  {
    name: 'strict: false with a space after each comma',
    result: 'region, total\nEast, 10\nWest, 5\n',
    expected: gold,
    options: { strict: false },
    upstream: { spider2v: 0, osworld: 0, native: 0 },
    robust: 1,
    because:
      "strict: false applies str.strip to whole lines, not cells; native strips string cells but not the header ' total'",
    flag: 'space after comma (strict: false strips lines, not cells)',
  },
  {
    name: 'CRLF line endings',
    result: gold.replace(/\n/g, '\r\n'),
    expected: gold,
    upstream: { spider2v: 1, osworld: 1, native: 1 },
    robust: 1,
    because: 'universal newlines / splitlines treat \\r\\n as one break',
  },
  {
    name: 'ignore_order with rows reversed',
    result: 'West,5\nEast,10\nregion,total\n',
    expected: gold,
    options: { ignore_order: true },
    upstream: { spider2v: 1, osworld: 0, native: 0 },
    robust: 1,
    because:
      "Spider2-V sorts all lines (header too); OSWorld's compare_csv has no ignore_order; pandas takes 'West,5' as the header",
    flag: 'row order',
  },
  {
    name: 'columns in another order',
    result: 'total,region\n10,East\n5,West\n',
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 1 },
    robust: 0,
    because: 'the native evaluator reindexes both frames by sorted column names',
    flag: 'column order',
  },
  {
    name: 'a space before numbers (strict)',
    result: 'region,total\nEast, 10\nWest, 5\n',
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 1 },
    robust: 0,
    because: "pandas' C parser reads ' 10' as the integer 10",
    flag: 'spaces around cells',
  },
  {
    name: '10.0 where the gold has 10',
    result: 'region,total\nEast,10.0\nWest,5.0\n',
    expected: gold,
    upstream: { spider2v: 0, osworld: 0, native: 0 },
    robust: 0,
    because: 'DataFrame.equals compares dtypes: float64 is not int64',
  },
  {
    name: 'latin-1 result against a UTF-8 gold',
    result: Buffer.from('city\nMálaga\n', 'latin1'),
    expected: 'city\nMálaga\n',
    upstream: { spider2v: 0, osworld: 1, native: 0 },
    robust: 0,
    because:
      "Spider2-V's open() fails on invalid UTF-8; OSWorld falls back to latin-1; pandas read_csv raises UnicodeDecodeError",
    flag: 'text encoding (not UTF-8)',
  },
];

const profiles: GradingProfile[] = ['spider2v', 'osworld', 'native'];

describe('compare_csv under each grading profile', () => {
  for (const c of csvCases) {
    for (const profile of profiles) {
      it(`${c.name} → ${profile} ${c.upstream[profile]} (${c.because})`, async () => {
        const r = file(c.result);
        const e = file(c.expected);
        const trial = await tryMetric('compare_csv', r, e, c.options ?? {}, profile);
        expect(trial.score, trial.reason).toBe(c.upstream[profile]);
        expect(trial.second_opinion.score, trial.second_opinion.reason).toBe(c.robust);
        expect(trial.profile).toBe(profile);
        if (c.upstream[profile] === c.robust) expect(trial.brittle).toBeUndefined();
        else expect(trial.brittle).toBe(`${c.flag}: faithful ${c.upstream[profile]}, robust ${c.robust}`);
      });
    }
  }
  it('OSWorld: a list of expected files scores 1 when any matches', async () => {
    const trial = await tryMetric('compare_csv', file(gold), [file('other\n'), file(gold)], {}, 'osworld');
    expect(trial.score).toBe(1);
    expect(trial.reason).toContain('expected file 2 of 2');
  });
});

async function xlsx(rows: (string | number | null)[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  const path = join(tmp.dir, `b${n++}.xlsx`);
  await wb.xlsx.writeFile(path);
  return path;
}

describe('compare_table sheet_data under each grading profile', () => {
  const rules = { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] };
  const cases: {
    name: string;
    result: (string | number | null)[][];
    expected: (string | number | null)[][];
    upstream: Record<GradingProfile, number>;
    robust: number;
    because: string;
    flag?: string;
  }[] = [
    {
      name: "numbers stored as text ('1' vs 1)",
      result: [
        ['id', 'n'],
        ['a', '1'],
        ['b', '2'],
      ],
      expected: [
        ['id', 'n'],
        ['a', 1],
        ['b', 2],
      ],
      upstream: { spider2v: 1, osworld: 1, native: 0 },
      robust: 0,
      because: "pd.read_excel's parser infers a column of numeric text as int64",
      flag: 'sheet_data: numbers stored as text',
    },
    {
      name: 'values that differ below 0.5 (2.6 vs 3.4)',
      result: [['x'], [2.6], [1.5]],
      expected: [['x'], [3.4], [1.5]],
      upstream: { spider2v: 0, osworld: 0, native: 0 },
      robust: 0,
      because: 'both round to the rule precision, 4 decimals by default',
    },
    {
      name: 'values equal to 4 decimals (2.50001 vs 2.5)',
      result: [['x'], [2.50001], [1.5]],
      expected: [['x'], [2.5], [1.5]],
      upstream: { spider2v: 1, osworld: 1, native: 1 },
      robust: 1,
      because: 'DataFrame.round(4) on both sides',
    },
    {
      name: 'identical sheets',
      result: [
        ['id', 'n'],
        ['a', 1.25],
      ],
      expected: [
        ['id', 'n'],
        ['a', 1.25],
      ],
      upstream: { spider2v: 1, osworld: 1, native: 1 },
      robust: 1,
      because: 'equal frames',
    },
  ];
  for (const c of cases) {
    for (const profile of ['spider2v', 'osworld'] as GradingProfile[]) {
      it(`${c.name} → ${profile} ${c.upstream[profile]} (${c.because})`, async () => {
        const trial = await tryMetric(
          'compare_table',
          await xlsx(c.result),
          await xlsx(c.expected),
          rules,
          profile,
        );
        expect(trial.score, trial.reason).toBe(c.upstream[profile]);
        expect(trial.second_opinion.score, trial.second_opinion.reason).toBe(c.robust);
        if (c.upstream[profile] === c.robust) expect(trial.brittle).toBeUndefined();
        else expect(trial.brittle).toBe(`${c.flag}: faithful ${c.upstream[profile]}, robust ${c.robust}`);
      });
    }
  }
  it('the native profile has no compare_table of its own: the robust metric is faithful there', async () => {
    expect(variants.get('compare_table')?.native).toBeUndefined();
    const trial = await tryMetric(
      'compare_table',
      await xlsx(cases[0].result),
      await xlsx(cases[0].expected),
      rules,
      'native',
    );
    expect(trial.score).toBe(0);
    expect(trial.brittle).toBeUndefined();
  });
});

describe('compare_text_file under each grading profile', () => {
  for (const profile of profiles) {
    it(`a byte-order mark on the result only → ${profile} 0, robust 1 (Python's utf-8 codec keeps U+FEFF)`, async () => {
      const trial = await tryMetric(
        'compare_text_file',
        file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hello\n')]), 'txt'),
        file('hello\n', 'txt'),
        {},
        profile,
      );
      expect(trial.score).toBe(0);
      expect(trial.second_opinion.score).toBe(1);
      expect(trial.brittle).toBe('byte-order mark: faithful 0, robust 1');
    });
    it(`ignore_blanks with a byte-order mark → ${profile} 0, robust 1 (Python's strip and \\s do not take U+FEFF; JavaScript's do)`, async () => {
      const trial = await tryMetric(
        'compare_text_file',
        file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a  b\n')]), 'txt'),
        file('a b', 'txt'),
        { ignore_blanks: true },
        profile,
      );
      expect(trial.score).toBe(0);
      expect(trial.second_opinion.score).toBe(1);
    });
    it(`ignore_blanks with tabs, newlines and runs of spaces → ${profile} 1`, async () => {
      const trial = await tryMetric(
        'compare_text_file',
        file('  a\t b\n\nc  \n', 'txt'),
        file('a b c', 'txt'),
        { ignore_blanks: true },
        profile,
      );
      expect(trial.score).toBe(1);
    });
    it(`CRLF against LF → ${profile} 1 (universal newlines)`, async () => {
      const trial = await tryMetric(
        'compare_text_file',
        file('a\r\nb\r\n', 'txt'),
        file('a\nb\n', 'txt'),
        {},
        profile,
      );
      expect(trial.score).toBe(1);
      expect(trial.brittle).toBeUndefined();
    });
  }
});

describe('departures', () => {
  it('name a registered metric, the case and why', async () => {
    const { metrics } = await import('./catalog');
    const list = departures();
    expect(list.length).toBeGreaterThan(0);
    for (const d of list) {
      expect(metrics.has(d.metric), d.metric).toBe(true);
      expect(d.case.length).toBeGreaterThan(5);
      expect(d.why.length).toBeGreaterThan(10);
    }
  });
});

describe('list metrics under the Spider2-V / OSWorld profiles', () => {
  const literal: {
    name: string;
    result: unknown;
    expected: unknown;
    options: Record<string, unknown>;
    upstream: number;
    robust: number;
    because: string;
    flag?: string;
  }[] = [
    {
      name: 'lists in another order with ignore_order',
      result: ['b', 'a'],
      expected: ['a', 'b'],
      options: { type: 'list', ignore_order: true },
      upstream: 0,
      robust: 1,
      because: 'upstream literal_match has no ignore_order: list equality in order',
      flag: 'ignore_order (not an upstream option)',
    },
    {
      name: 'numbers against strings',
      result: [1, 2],
      expected: ['1', '2'],
      options: { type: 'list' },
      upstream: 1,
      robust: 1,
      because: 'both sides go through str()',
    },
  ];
  for (const c of literal) {
    for (const profile of ['spider2v', 'osworld'] as GradingProfile[]) {
      it(`literal_match: ${c.name} → ${profile} ${c.upstream} (${c.because})`, async () => {
        const trial = await tryMetric('literal_match', c.result, c.expected, c.options, profile);
        expect(trial.score).toBe(c.upstream);
        expect(trial.second_opinion.score).toBe(c.robust);
        expect(trial.brittle).toBe(
          c.upstream === c.robust ? undefined : `${c.flag}: faithful ${c.upstream}, robust ${c.robust}`,
        );
      });
    }
  }
  it('is_not_in_list: exclude given as a list while a name is present → spider2v 1, robust 0 (upstream tests `list not in result`)', async () => {
    const trial = await tryMetric('is_not_in_list', ['sales', 'tmp'], { exclude: ['tmp'] }, {}, 'spider2v');
    expect(trial.score).toBe(1);
    expect(trial.second_opinion.score).toBe(0);
    expect(trial.brittle).toBe(
      'exclude given as a list (upstream tests the list as one element): faithful 1, robust 0',
    );
  });
  it('compare_script_logs with empty rules → native 0 (the evaluator refuses an empty rule set), robust 1', async () => {
    const trial = await tryMetric('compare_script_logs', 'kernel ok', {}, {}, 'native');
    expect(trial.score).toBe(0);
    expect(trial.second_opinion.score).toBe(1);
    expect(trial.brittle).toBe('empty rules: faithful 0, robust 1');
    expect(
      (await tryMetric('compare_script_logs', 'kernel ok', { include: ['ok'] }, {}, 'native')).score,
    ).toBe(1);
  });
  it('is_not_in_list: a single name present → 0 under every profile', async () => {
    for (const profile of profiles)
      expect(
        (await tryMetric('is_not_in_list', ['sales', 'tmp'], { exclude: 'tmp' }, {}, profile)).score,
      ).toBe(0);
  });
});

describe('notebook metrics under the Spider2-V and native profiles', () => {
  const nb = (cells: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5, ...extra });
  const code = (
    source: string | string[],
    outputs: unknown[],
    count: number | null = 1,
    more: Record<string, unknown> = {},
  ) => ({ cell_type: 'code', source, outputs, execution_count: count, metadata: {}, ...more });
  const out = (text: string | string[], name = 'stdout') => ({ output_type: 'stream', name, text });
  const result = (plain: string, count: number) => ({
    output_type: 'execute_result',
    data: { 'text/plain': plain },
    metadata: {},
    execution_count: count,
  });
  const cases: {
    metric: string;
    name: string;
    result: string;
    expected: string;
    upstream: Partial<Record<GradingProfile, number>>;
    robust: number;
    because: string;
    flag?: string;
  }[] = [
    {
      metric: 'compare_notebook_outputs',
      name: 'the same output with another execution count',
      result: nb([code('1+1', [result('2', 7)], 7)]),
      expected: nb([code('1+1', [result('2', 1)], 1)]),
      upstream: { spider2v: 0, native: 1 },
      robust: 1,
      because:
        'Spider2-V compares output dicts whole (execution_count included); native compares text/plain only',
      flag: 'execution counts',
    },
    {
      metric: 'compare_notebook_outputs',
      name: 'an extra stderr stream and pip noise on the result',
      result: nb([code('x', [out('ok\n'), out('warn\n', 'stderr'), out('Successfully installed y\n')])]),
      expected: nb([code('x', [out('ok\n')])]),
      upstream: { spider2v: 0, native: 1 },
      robust: 0,
      because: 'native keeps only stdout streams without pip messages and text/plain data',
      flag: 'outputs not compared by one reading (errors, images, other streams)',
    },
    {
      metric: 'compare_notebook_outputs',
      name: 'stream text stored as lines against joined text',
      result: nb([code('x', [out(['a\n', 'b\n'])])]),
      expected: nb([code('x', [out('a\nb\n')])]),
      upstream: { spider2v: 1, native: 1 },
      robust: 1,
      because: "nbformat's rejoin_lines joins multi-line strings on reading",
    },
    {
      metric: 'compare_notebook_cells',
      name: 'a trailing newline in a cell source',
      result: nb([code('print(1)\n', [])]),
      expected: nb([code('print(1)', [])]),
      upstream: { spider2v: 0, native: 1 },
      robust: 0,
      because: 'native compares source.strip(); Spider2-V compares sources exactly',
      flag: 'whitespace around a cell source',
    },
    {
      metric: 'compare_ipynb_files',
      name: 'other cell ids and execution counts, same sources and texts',
      result: nb([code('x', [out('ok')], 3, { id: 'aaa' })]),
      expected: nb([code('x', [out('ok')], 1, { id: 'bbb' })]),
      upstream: { spider2v: 0, native: 1 },
      robust: 0,
      because: 'Spider2-V compares cells whole; native sanitises to type, stripped source and stream texts',
      flag: 'execution counts',
    },
    {
      metric: 'are_jupyter_outputs_cleared',
      name: 'outputs kept but the execution count cleared',
      result: nb([code('x', [out('ok')], null)]),
      expected: '',
      upstream: { spider2v: 1, native: 0 },
      robust: 0,
      because: 'Spider2-V looks only at execution_count; native at outputs holding text, data or an error',
      flag: 'outputs kept without an execution count',
    },
  ];
  for (const c of cases) {
    for (const [profile, want] of Object.entries(c.upstream) as [GradingProfile, number][]) {
      it(`${c.metric}: ${c.name} → ${profile} ${want} (${c.because})`, async () => {
        const r = file(c.result, 'ipynb');
        const e = c.expected ? file(c.expected, 'ipynb') : { expected: [] };
        const trial = await tryMetric(c.metric, r, e, {}, profile);
        expect(trial.score, trial.reason).toBe(want);
        expect(trial.second_opinion.score, trial.second_opinion.reason).toBe(c.robust);
        expect(trial.brittle).toBe(
          want === c.robust ? undefined : `${c.flag}: faithful ${want}, robust ${c.robust}`,
        );
      });
    }
  }
});

describe('compare_jupyterlab_images under the native profile', () => {
  /** A 40×40 PNG: the left half `left` (RGB), the right half white. */
  async function png(left: [number, number, number]): Promise<string> {
    const raw = Buffer.alloc(40 * 40 * 3, 255);
    for (let y = 0; y < 40; y++) for (let x = 0; x < 20; x++) raw.set(left, (y * 40 + x) * 3);
    const path = join(tmp.dir, `i${n++}.png`);
    await (
      await import('sharp')
    )
      .default(raw, { raw: { width: 40, height: 40, channels: 3 } })
      .png()
      .toFile(path);
    return path;
  }
  it('red where the gold has blue → native 0 (grayscale histograms differ), robust 1 (green channels agree)', async () => {
    const trial = await tryMetric(
      'compare_jupyterlab_images',
      await png([255, 0, 0]),
      await png([0, 0, 255]),
      {},
      'native',
    );
    expect(trial.score, trial.reason).toBe(0);
    expect(trial.second_opinion.score).toBe(1);
    expect(trial.brittle).toMatch(/^histogram channel and threshold .*: faithful 0, robust 1$/);
  });
  it('the same image → 1 under native and robust; Spider2-V uses the robust reading', async () => {
    const p = await png([10, 200, 30]);
    expect((await tryMetric('compare_jupyterlab_images', p, p, {}, 'native')).score).toBe(1);
    expect(variants.get('compare_jupyterlab_images')?.spider2v).toBeUndefined();
  });
});

describe('getter variants', () => {
  it('a getter registered for a profile replaces the default getter under that profile only', async () => {
    const { getters } = await import('./catalog');
    const { getterVariants } = await import('./profile');
    const { gradeTask } = await import('./grade');
    getters.register('test_answer', async () => 'default');
    getterVariants.register('test_answer', { osworld: async () => 'osworld' });
    const task = {
      id: 't',
      shape: 'spider2v',
      file: '/t.json',
      dir: '/',
      domain: 'd',
      app: 'a',
      instruction: '',
      source: [],
      relatedApps: [],
      tags: [],
      needsAccount: [],
      needsProxy: false,
      setup: [],
      postSetup: [],
      conj: 'and',
      infeasible: false,
      raw: {},
      checks: [
        {
          metric: 'exact_match',
          result: { type: 'test_answer' },
          expected: { type: 'rule', rules: { expected: 'osworld' } },
          options: {},
          pointer: '/evaluator',
        },
      ],
    } as unknown as import('../../shared/task').Task;
    const ctx = { env: {} as never, task, cacheDir: tmp.dir, lastAction: 'DONE' };
    expect((await gradeTask(task, ctx)).score).toBe(0);
    const v = await gradeTask(task, { ...ctx, profile: 'osworld' });
    expect(v.score).toBe(1);
    expect(v.profile).toBe('osworld');
  });
});
