import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, describeEndpoint, resolveEndpoint } from './endpoint';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-endpoint-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function config(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('resolveEndpoint', () => {
  it('takes flags over env over the config file, and PROCTOR_API_KEY over OPENAI_API_KEY', () => {
    const file = config(
      'all.json',
      JSON.stringify({ baseUrl: 'http://cfg/v1', model: 'cfg-model', apiKey: 'cfg-key' }),
    );
    const env = {
      PROCTOR_CONFIG: file,
      PROCTOR_API_KEY: 'proctor-key',
      OPENAI_API_KEY: 'openai-key',
      PROCTOR_MODEL: 'env-model',
    };
    const r = resolveEndpoint({ env, flags: { baseUrl: 'http://flag/v1' } });
    expect(r.endpoint).toEqual({ baseUrl: 'http://flag/v1', model: 'env-model', apiKey: 'proctor-key' });
    expect(r.sources).toEqual({ baseUrl: 'flag', model: 'env', apiKey: 'env' });
    expect(
      resolveEndpoint({ env: { PROCTOR_CONFIG: file, OPENAI_API_KEY: 'openai-key' } }).endpoint.apiKey,
    ).toBe('openai-key');
    const fromFile = resolveEndpoint({ env: { PROCTOR_CONFIG: file } });
    expect(fromFile.endpoint).toEqual({ baseUrl: 'http://cfg/v1', model: 'cfg-model', apiKey: 'cfg-key' });
    expect(fromFile.configFile).toBe(file);
  });

  it('lets a section of the config file (judge) override the top level', () => {
    const file = config(
      'sections.json',
      JSON.stringify({
        model: 'agent-model',
        judge: { model: 'judge-model', prices: { 'judge-model': { input: 1, output: 2 } } },
      }),
    );
    expect(resolveEndpoint({ env: { PROCTOR_CONFIG: file } }).endpoint.model).toBe('agent-model');
    const judge = resolveEndpoint({ env: { PROCTOR_CONFIG: file }, section: 'judge' });
    expect(judge.endpoint.model).toBe('judge-model');
    expect(judge.prices).toEqual({ 'judge-model': { input: 1, output: 2 } });
  });

  it('names the file, line and column of a broken config file', () => {
    const file = config('broken.json', '{\n  "model": "x",\n  "apiKey": oops\n}');
    expect(() => resolveEndpoint({ env: { PROCTOR_CONFIG: file } })).toThrow(ConfigError);
    expect(() => resolveEndpoint({ env: { PROCTOR_CONFIG: file } })).toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+`),
    );
  });

  it('names the pointer of a wrongly typed field', () => {
    const file = config(
      'typed.json',
      JSON.stringify({ model: 'm', prices: { m: { input: 'cheap', output: 1 } } }),
    );
    expect(() => resolveEndpoint({ env: { PROCTOR_CONFIG: file } })).toThrow(
      /\/prices\/m\/input: must be a non-negative number/,
    );
  });

  it('asks for a model when none is named anywhere, and works without a config file', () => {
    const env = { PROCTOR_CONFIG: path.join(dir, 'absent.json') };
    expect(() => resolveEndpoint({ env })).toThrow(/pass --model, set PROCTOR_MODEL/);
    const r = resolveEndpoint({ env, flags: { model: 'm' } });
    expect(r.endpoint.baseUrl).toBe('https://api.openai.com/v1');
    expect(r.endpoint.apiKey).toBeUndefined();
  });

  it('describes the endpoint without the key', () => {
    const r = resolveEndpoint({
      env: { PROCTOR_CONFIG: path.join(dir, 'absent.json'), PROCTOR_API_KEY: 'sk-describe-secret' },
      flags: { model: 'm' },
    });
    const shown = JSON.stringify(describeEndpoint(r));
    expect(shown).not.toContain('sk-describe-secret');
    expect(shown).toContain('set (from env)');
  });
});
