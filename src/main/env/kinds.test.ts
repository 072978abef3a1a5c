// Environment specs and the environments registry: reading `kind`, `kind:rest`, `kind://…`; secrets never
// stored; the local kind's size; a real sandbox display made through the registry at the spec's size.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  checkEnvironmentFits,
  checkEnvSpec,
  createEnvironment,
  environmentKinds,
  environmentKindsInfo,
  EnvSpecError,
  kindCapabilities,
  parseEnvSpec,
  preflightEnvironment,
  specScreen,
  storableArgs,
  storableEnvSpec,
} from './kinds';
import { createShellEnvironment } from './local/shell-environment';

describe('environment specs', () => {
  it('read the kind and the rest', () => {
    expect(parseEnvSpec('local')).toEqual({ text: 'local', kind: 'local', rest: '' });
    expect(parseEnvSpec(' local:1280x800 ')).toEqual({
      text: 'local:1280x800',
      kind: 'local',
      rest: '1280x800',
    });
    const remote = parseEnvSpec('OSWorld://vm.example:5000?token=abc');
    expect(remote).toMatchObject({ kind: 'osworld', rest: 'vm.example:5000?token=abc' });
    expect(remote.url?.hostname).toBe('vm.example');
    expect(remote.url?.port).toBe('5000');
    expect(remote.url?.searchParams.get('token')).toBe('abc');
  });

  it('refuse what is not a spec, saying what is wrong', () => {
    expect(() => parseEnvSpec('')).toThrow(/empty/);
    expect(() => parseEnvSpec('local 1')).toThrow(/spaces or control characters/);
    expect(() => parseEnvSpec('local:\u0007')).toThrow(/control characters/);
    expect(() => parseEnvSpec('9local')).toThrow(/starts with a kind/);
    expect(() => parseEnvSpec('osworld://[::1')).toThrow(EnvSpecError);
    expect(() => parseEnvSpec('x'.repeat(3000))).toThrow(/longer than/);
  });

  it('are stored without their secrets', () => {
    expect(storableEnvSpec('osworld://vm:5000?token=s3cret&retries=2')).toBe('osworld://vm:5000?retries=2');
    expect(storableEnvSpec('osworld://me:pw@vm:5000')).toBe('osworld://me@vm:5000');
    expect(storableEnvSpec('local:1280x800')).toBe('local:1280x800');
    expect(storableArgs(['t', '--env', 'osworld://vm?token=s3cret', '--env=osworld://vm?key=k2'])).toEqual([
      't',
      '--env',
      'osworld://vm',
      '--env=osworld://vm',
    ]);
    expect(storableArgs(['--env', 'osworld://vm?token=s3cret']).join(' ')).not.toMatch(/s3cret/);
  });
});

describe('the environments registry', () => {
  it('knows the local kind and checks its size', () => {
    expect(environmentKinds.has('local')).toBe(true);
    expect(checkEnvSpec('local:1280x800').rest).toBe('1280x800');
    expect(() => checkEnvSpec('local:12x8')).toThrow(/WIDTHxHEIGHT|320x200/);
    expect(() => checkEnvSpec('local:big')).toThrow(/WIDTHxHEIGHT/);
    expect(() => checkEnvSpec('local://host')).toThrow(/takes no URL/);
    expect(() => checkEnvSpec('lokal')).toThrow(
      /unknown environment kind 'lokal' \(closest known: 'local'\)/,
    );
  });

  it('builds an environment of the spec kind with the request', async () => {
    const asked: unknown[] = [];
    if (!environmentKinds.has('test-shell'))
      environmentKinds.register('test-shell', {
        summary: 'test-shell      a shell environment (kinds.test.ts)',
        capabilities: { provides: ['shell', 'files', 'launch', 'browser'], runsOn: 'this-machine' },
        check(spec) {
          if (spec.rest !== 'ok') throw new EnvSpecError(`'${spec.text}': test-shell takes :ok`);
        },
        async create(spec, request) {
          asked.push({ spec: spec.text, request });
          return createShellEnvironment({ home: request.home });
        },
      });
    expect(() => checkEnvSpec('test-shell:no')).toThrow(/takes :ok/);
    const env = await createEnvironment('test-shell:ok', { worker: 3, width: 640, height: 480 });
    try {
      expect(env.kind).toBe('shell');
      expect(asked).toEqual([{ spec: 'test-shell:ok', request: { worker: 3, width: 640, height: 480 } }]);
    } finally {
      await env.close();
    }
  });

  const hasXvfb = spawnSync('sh', ['-c', 'command -v Xvfb openbox dbus-daemon']).status === 0;
  it.skipIf(!hasXvfb)(
    'makes a real sandbox display at the size local:WxH gives, else at the request size',
    async () => {
      const sized = await createEnvironment('local:800x600', { worker: 0, width: 1920, height: 1080 });
      try {
        expect(await sized.screen()).toMatchObject({ width: 800, height: 600 });
        // what the kind declares is what its real environment has
        expect([...sized.capabilities].sort()).toEqual([...kindCapabilities('local').provides].sort());
      } finally {
        await sized.close();
      }
      const plain = await createEnvironment('local', { worker: 0, width: 1024, height: 768 });
      try {
        expect(await plain.screen()).toMatchObject({ width: 1024, height: 768 });
      } finally {
        await plain.close();
      }
    },
    60_000,
  );
});

describe('environment kinds declare capabilities', () => {
  const shellProvides = ['shell', 'files', 'launch', 'browser'] as const;
  if (!environmentKinds.has('test-shell-caps'))
    environmentKinds.register('test-shell-caps', {
      summary: 'test-shell-caps   a shell environment: no screen, no input (kinds.test.ts)',
      capabilities: { provides: shellProvides, runsOn: 'this-machine' },
      check() {},
      create: (_spec, request) => createShellEnvironment({ home: request.home }),
    });

  it('the start form learns each kind, its observations and action spaces from the registry', () => {
    const info = environmentKindsInfo();
    const local = info.find((k) => k.kind === 'local');
    const osworld = info.find((k) => k.kind === 'osworld');
    expect(local?.capabilities).toMatchObject({
      runsOn: 'this-machine',
      observations: ['screenshot', 'a11y_tree', 'screenshot_a11y_tree', 'som'],
      actionSpaces: ['pyautogui', 'computer_13'],
    });
    expect(osworld?.capabilities).toMatchObject({ runsOn: 'other-machine' });
    expect(osworld?.summary).toMatch(/^osworld:\/\//);
    expect(info.find((k) => k.kind === 'test-shell-caps')?.capabilities).toEqual({
      provides: [...shellProvides],
      runsOn: 'this-machine',
      observations: [],
      actionSpaces: [],
    });
  });

  it("a kind's declaration matches the environments it makes", async () => {
    const env = await createEnvironment('test-shell-caps', { worker: 0, width: 640, height: 480 });
    try {
      expect([...env.capabilities].sort()).toEqual([...shellProvides].sort());
    } finally {
      await env.close();
    }
  });

  it('a run whose observation or action space the kind cannot give is refused before it starts, saying what lacks', () => {
    expect(() => checkEnvironmentFits('test-shell-caps', { observation: 'som' })).toThrow(
      /the test-shell-caps environment cannot give observation 'som' \(it has no screenshot, accessibility\)/,
    );
    expect(() =>
      preflightEnvironment('test-shell-caps', {
        agentHoldsSecrets: false,
        allowUnisolated: true,
        actionSpace: 'pyautogui',
      }),
    ).toThrow(/cannot perform action space 'pyautogui' \(it has no input\)/);
    expect(() =>
      checkEnvironmentFits('local', { observation: 'som', actionSpace: 'computer_13' }),
    ).not.toThrow();
    expect(() => checkEnvironmentFits('osworld://vm:5000', { observation: 'a11y_tree' })).not.toThrow();
  });

  it('the screen a spec fixes comes from its kind, not its name', () => {
    expect(specScreen('local:800x600')).toEqual({ width: 800, height: 600 });
    expect(specScreen('local')).toBeUndefined();
    expect(specScreen('osworld://vm:5000')).toBeUndefined();
    expect(specScreen('test-shell-caps')).toBeUndefined();
  });
});
