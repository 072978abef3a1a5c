// `proctor completion bash` loaded into a real bash: command names, a command's flags from its table, an option's
// value list, and folders for a folder-valued option.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main';

const dir = mkdtempSync(join(tmpdir(), 'proctor-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function script(): Promise<string> {
  let out = '';
  expect(await main(['completion', 'bash'], { out: (l) => (out += l + '\n'), err: () => undefined })).toBe(0);
  return out;
}

/** What bash completes for the words typed so far (the last one being completed). */
function complete(code: string, words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    [
      '-c',
      `${code}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _proctor; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('proctor completion bash', () => {
  it('completes commands, flags from the option tables, value lists and folders', async () => {
    const code = await script();
    expect(complete(code, ['proctor', 'wor'])).toEqual(['worker']);
    expect(complete(code, ['proctor', 'run', '--grad'])).toEqual(['--grading-profile']);
    expect(complete(code, ['proctor', 'run', '--retry-'])).toEqual([
      '--retry-env-errors',
      '--retry-grading-errors',
    ]);
    expect(complete(code, ['proctor', 'run', '--grading-profile', ''])).toEqual([
      'native',
      'osworld',
      'spider2v',
    ]);
    expect(complete(code, ['proctor', 'report', '--by', 'di'])).toEqual(['difficulty']);
    mkdirSync(join(dir, 'results-a'));
    expect(complete(code, ['proctor', 'run', '--out', 'res'])).toEqual(['results-a']);
    // a command without a table: the flags its usage names
    expect(complete(code, ['proctor', 'team', '--roo'])).toEqual(['--root']);
  });

  it('refuses another shell with a usage error', async () => {
    let err = '';
    expect(await main(['completion', 'fish'], { out: () => undefined, err: (l) => (err += l) })).toBe(2);
    expect(err).toMatch(/completion for 'fish' is not made; bash is/);
  });
});
