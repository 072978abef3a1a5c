// Small benchmark checkouts for tests, laid out as the benchmarks lay out theirs: a Spider2-V spreadsheet task in
// `evaluation_examples/examples/excel/<uuid>/` with its workbook and gold workbook beside it (and a split file),
// and OSWorld LibreOffice tasks in `evaluation_examples/examples/libreoffice_calc/<uuid>.json` that download
// their workbook and name their gold by URL.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeXlsx } from '../../evaluators/testing/xlsx-parts';

export const SPIDER2V_ID = '5b1a0c3e-9d2f-4c1e-8a7b-1f2e3d4c5b6a';
export const OSWORLD_IDS = [
  '7c0e1f2a-3b4c-4d5e-8f90-a1b2c3d4e5f6',
  '8d1f2a3b-4c5d-4e6f-9a01-b2c3d4e5f6a7',
  '9e2a3b4c-5d6e-4f70-8b12-c3d4e5f6a7b8',
];
export const URL_BASE = 'https://files.example.invalid/osworld/';

/** A Spider2-V excel task as in the benchmark's repository: copy the workbook, open it, save it in postconfig. */
export function spider2vTask(
  id: string,
  postconfig: unknown[] = spider2vSave('Loans.xlsx'),
): Record<string, unknown> {
  const base = `evaluation_examples/examples/excel/${id}`;
  return {
    id,
    snapshot: 'excel',
    instruction: 'Add a column "Total" with the sum of A and B in each row, and save the file.',
    source: ['proctor test'],
    config: [
      {
        type: 'copyfile_from_host_to_guest',
        parameters: { src: `${base}/Loans.xlsx`, dest: '/home/user/Loans.xlsx' },
      },
      { type: 'open', parameters: { path: '/home/user/Loans.xlsx' } },
    ],
    related_apps: ['excel'],
    action_number: 4,
    evaluator: {
      postconfig,
      func: 'compare_table',
      expected: { type: 'local_file', path: `${base}/Loans_gold.xlsx`, dest: 'Loans_gold.xlsx' },
      result: { type: 'vm_file', path: '/home/user/Loans.xlsx', dest: 'Loans.xlsx' },
      options: { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] },
    },
    tags: ['traditional_data_processing', 'cli+gui', 'verbose'],
  };
}

/** Spider2-V's postconfig for a workbook: activate its Calc window, save with Ctrl+S through pyautogui. */
export function spider2vSave(name: string): unknown[] {
  return [
    { type: 'activate_window', parameters: { window_name: `${name} - LibreOffice Calc`, strict: true } },
    { type: 'sleep', parameters: { seconds: 0.5 } },
    {
      type: 'execute',
      parameters: { command: ['python', '-c', 'import pyautogui; pyautogui.hotkey("ctrl", "s");'] },
    },
    { type: 'sleep', parameters: { seconds: 0.5 } },
  ];
}

/** OSWorld's files live on Google Drive: a URL whose last path name (`download`) names nothing; its `id` does. */
export function driveUrl(id: string, what: string): string {
  return `https://drive.usercontent.google.com/download?id=${id}-${what}&export=download&authuser=0&confirm=t`;
}

/** The URL of one of an OSWorld task's files: the second task's are Google Drive URLs, as most of OSWorld's. */
export function osworldUrl(id: string, what: 'book' | 'gold'): string {
  return id === OSWORLD_IDS[1] ? driveUrl(id, what) : `${URL_BASE}${id}-${what}.xlsx`;
}

/**
 * An OSWorld Calc task: download the workbook, open it, compare it with a gold named by URL. The second names its
 * app as some of OSWorld's do (`libreoffice calc`, with a space).
 */
export function osworldTask(
  id: string,
  related: string[] = [id === OSWORLD_IDS[1] ? 'libreoffice calc' : 'libreoffice_calc'],
): Record<string, unknown> {
  return {
    id,
    snapshot: 'libreoffice_calc',
    instruction: 'Fill the Total column.',
    source: 'proctor test',
    config: [
      {
        type: 'download',
        parameters: { files: [{ url: osworldUrl(id, 'book'), path: '/home/user/book.xlsx' }] },
      },
      { type: 'open', parameters: { path: '/home/user/book.xlsx' } },
    ],
    trajectory: 'trajectories/',
    related_apps: related,
    evaluator: {
      func: 'compare_table',
      result: { type: 'vm_file', path: '/home/user/book.xlsx', dest: 'book.xlsx' },
      expected: { type: 'cloud_file', path: osworldUrl(id, 'gold'), dest: 'gold.xlsx' },
      options: { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] },
    },
  };
}

export interface Checkout {
  root: string;
  spider2vTaskFile: string;
  spider2vTaskDir: string;
  splitFile: string;
  osworldTaskFiles: string[];
}

/** Writes a checkout under `root`: one Spider2-V task with its workbooks and split file, three OSWorld tasks. */
export async function writeCheckout(root: string): Promise<Checkout> {
  const examples = join(root, 'evaluation_examples', 'examples');
  const dir = join(examples, 'excel', SPIDER2V_ID);
  mkdirSync(dir, { recursive: true });
  const rows = [
    ['A', 'B'],
    [1, 2],
    [3, 4],
  ];
  await writeXlsx(join(dir, 'Loans.xlsx'), { sheets: [['Sheet1', rows]] });
  await writeXlsx(join(dir, 'Loans_gold.xlsx'), {
    sheets: [['Sheet1', rows.map((r, i) => [...r, i === 0 ? 'Total' : (r[0] as number) + (r[1] as number)])]],
  });
  const spider2vTaskFile = join(dir, `${SPIDER2V_ID}.json`);
  writeFileSync(spider2vTaskFile, JSON.stringify(spider2vTask(SPIDER2V_ID), null, 2));
  const splitFile = join(root, 'evaluation_examples', 'test_all.json');
  writeFileSync(splitFile, JSON.stringify({ excel: [SPIDER2V_ID] }));
  const calc = join(examples, 'libreoffice_calc');
  mkdirSync(calc, { recursive: true });
  const osworldTaskFiles = OSWORLD_IDS.map((id, i) => {
    const f = join(calc, `${id}.json`);
    writeFileSync(
      f,
      JSON.stringify(
        osworldTask(id, ...(i === 2 ? [['libreoffice_calc', 'no_such_app_here']] : [])),
        null,
        2,
      ),
    );
    return f;
  });
  return { root, spider2vTaskFile, spider2vTaskDir: dir, splitFile, osworldTaskFiles };
}
