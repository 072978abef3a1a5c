import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
const file = (name: string, data: string | Buffer): string => {
  const p = join(tmp.dir, name);
  writeFileSync(p, data);
  return p;
};
async function zip(name: string, entries: Record<string, string>): Promise<string> {
  const z = new JSZip();
  for (const [k, v] of Object.entries(entries)) z.file(k, v);
  return file(name, await z.generateAsync({ type: 'nodebuffer' }));
}

describe('OSWorld vscode-family metrics', () => {
  it('are registered in the vscode family', () => expect(metricFamilyOf('check_json_settings')).toBe('vscode'));

  it('check_json_keybindings reads the list after VS Code\'s comment line', async () => {
    const kb = file('keybindings.json', '// Place your key bindings in this file to override the defaults\n[{"key": "ctrl+j", "command": "editor.action.joinLines"}]');
    expect((await runMetric('check_json_keybindings', kb, { expected: { key: 'ctrl+j', command: 'editor.action.joinLines' } })).score).toBe(1);
    expect((await runMetric('check_json_keybindings', kb, { expected: { key: 'ctrl+k', command: 'editor.action.joinLines' } })).score).toBe(0);
  });

  it('check_json_settings needs every pair', async () => {
    const s = file('settings.json', JSON.stringify({ 'editor.fontSize': 16, 'files.autoSave': 'afterDelay' }));
    expect((await runMetric('check_json_settings', s, { expected: { 'editor.fontSize': 16 } })).score).toBe(1);
    expect((await runMetric('check_json_settings', s, { expected: { 'editor.fontSize': 16, 'editor.tabSize': 2 } })).score).toBe(0);
  });

  it('compare_config compares the whole text', async () => {
    const c = file('c.ini', '[a]\nx=1\n');
    expect((await runMetric('compare_config', c, { expected: '[a]\nx=1\n' })).score).toBe(1);
    expect((await runMetric('compare_config', c, { expected: '[a]\nx=1' })).score).toBe(0);
  });

  it('compare_result_files: numbers within 1e-4 or contained, text equal', async () => {
    const gold = file('gold.txt', '3.14159\n');
    expect((await runMetric('compare_result_files', file('r1.txt', 'The answer is 3.14159'), gold)).score).toBe(1);
    expect((await runMetric('compare_result_files', file('r2.txt', '3.141592'), gold)).score).toBe(1);
    expect((await runMetric('compare_result_files', file('r3.txt', '3.15'), gold)).score).toBe(0);
    expect((await runMetric('compare_result_files', file('r4.txt', 'hello'), file('g2.txt', 'hello\n'))).score).toBe(1);
  });

  it('compare_zip_files compares names and bytes', async () => {
    const a = await zip('a.zip', { 'x.txt': 'one', 'd/y.txt': 'two' });
    const b = await zip('b.zip', { 'd/y.txt': 'two', 'x.txt': 'one' });
    const c = await zip('c.zip', { 'x.txt': 'one', 'd/y.txt': 'TWO' });
    expect((await runMetric('compare_zip_files', a, b)).score).toBe(1);
    expect((await runMetric('compare_zip_files', a, c)).score).toBe(0);
  });

  it('is_extension_installed: contain / not_contain', async () => {
    const out = 'ms-python.python\nesbenp.prettier-vscode\n';
    expect((await runMetric('is_extension_installed', out, { type: 'contain', expected: 'ms-python.python' })).score).toBe(1);
    expect((await runMetric('is_extension_installed', out, { type: 'not_contain', expected: 'ms-python.python' })).score).toBe(0);
  });
});
