// The config-file getters and the metrics of OSWorld's settings tasks on files the real applications wrote: GIMP
// on a sandbox display, driven by keys and quit with Ctrl+Q (its sessionrc and gimprc), and VLC saving vlcrc.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalEnvironment, type LocalEnvironment } from '../../env/local/local-environment';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { hasDisplayTools } from '../../env/local/testing/apps';
import { getters, metricFamilyOf, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { hasGimp, hasVlc, hasVlcQt, startGimp, vlcWritesConfig } from '../testing/app-sessions';

const contextOf = (env: LocalEnvironment | ShellEnvironment, cache: string): GradingContext => ({
  env,
  task: { dir: env.home.tmp, file: join(env.home.tmp, 't.json') } as Task,
  cacheDir: join(env.home.tmp, cache),
});

/** Grades `rule` on what `getter` fetched, as an OSWorld evaluator does: the getter's result, then the metric. */
async function grade(
  ctx: GradingContext,
  getter: Record<string, unknown>,
  metric: string,
  rule: unknown,
): Promise<number> {
  const got = await getters.require(getter.type as string)({ ...getter, type: getter.type as string }, ctx);
  return (await metrics.require(metric)(got, rule, {}, ctx)).score;
}

describe.skipIf(!hasGimp || !hasDisplayTools)(
  'gimp_config_file and check_config_status on what real GIMP wrote (needs gimp, ImageMagick, Xvfb)',
  () => {
    let env: LocalEnvironment;
    const sessionrc = { type: 'gimp_config_file', file_name: 'sessionrc', dest: 'sessionrc' };
    const gimprc = { type: 'gimp_config_file', file_name: 'gimprc', dest: 'gimprc' };
    // OSWorld's d52d6308 ("remove the dock on the left") rule, the typo key "type:" included
    const hideDocks = { 'type:': 'key-value', key: 'hide-docks', value: 'yes' };
    // OSWorld's b148e375 (a new layer named 'Square') and 7b7617bd (100 undo levels) rules
    const square = { key: 'layer-new-name', value: '"Square"' };
    const undo = { key: 'undo-levels', value: '100' };
    beforeAll(async () => {
      env = await createLocalEnvironment({ width: 1280, height: 800 });
    }, 60_000);
    afterAll(async () => {
      await env?.close();
    });

    it(
      'a session without the change scores 0; Tab (hide docks), a new layer named Square and 100 undo levels in Preferences score 1',
      { timeout: 300_000 },
      async () => {
        expect(metricFamilyOf('check_config_status')).toBe('gimp');
        // Session 1: GIMP started and quit, nothing changed.
        const first = await startGimp(env);
        await first.quit();
        const plain = readFileSync(join(env.home.root, '.config/GIMP/2.10/sessionrc'), 'utf8');
        expect(plain).toMatch(/^\(hide-docks no\)$/m);
        expect(await grade(contextOf(env, 'c1'), sessionrc, 'check_config_status', hideDocks)).toBe(0);
        // nothing differs from the defaults: GIMP writes no gimprc, the getter finds none and the metric scores 0
        expect(await getters.require('gimp_config_file')(gimprc, contextOf(env, 'c0'))).toBeUndefined();
        expect(await grade(contextOf(env, 'c1'), gimprc, 'check_config_status', square)).toBe(0);
        expect(await grade(contextOf(env, 'c1'), gimprc, 'check_config_status', undo)).toBe(0);

        // Session 2: Tab hides the docks; Shift+Ctrl+N, "Square", Enter adds the layer; Preferences set 100 undo
        // levels; then Ctrl+Q and discard.
        const second = await startGimp(env);
        await second.keys(['tab']);
        await second.keys(['shift', 'ctrl', 'n']);
        await second.window('^New Layer$');
        await env.perform([
          { type: 'hotkey', keys: ['ctrl', 'a'] },
          { type: 'write', text: 'Square' },
          { type: 'press', keys: ['enter'] },
        ]);
        await second.gone('^New Layer$');
        // Preferences through Search Actions (/); its first page, System Resources, starts with the undo levels
        await second.keys(['/']);
        await second.window('^Search Actions$');
        await env.perform([
          { type: 'write', text: 'preferences' },
          { type: 'press', keys: ['enter'] },
        ]);
        await second.window('^Preferences$');
        await env.perform([
          { type: 'press', keys: ['tab'] },
          { type: 'hotkey', keys: ['ctrl', 'a'] },
          { type: 'write', text: '100' },
          { type: 'press', keys: ['tab'] },
          { type: 'hotkey', keys: ['alt', 'o'] },
        ]);
        await second.gone('^Preferences$');
        await second.quit();
        const ctx = contextOf(env, 'c2');
        expect(await grade(ctx, sessionrc, 'check_config_status', hideDocks)).toBe(1);
        expect(await grade(ctx, gimprc, 'check_config_status', square)).toBe(1);
        expect(await grade(ctx, gimprc, 'check_config_status', undo)).toBe(1);
        expect(await grade(ctx, gimprc, 'check_config_status', { key: 'undo-levels', value: '5' })).toBe(0);
        expect(
          await grade(ctx, gimprc, 'check_config_status', { key: 'layer-new-name', value: '"Circle"' }),
        ).toBe(0);
        // the two-part key form on a real line: (session-info "toplevel" …) has no value at its end
        expect(
          await grade(ctx, sessionrc, 'check_config_status', {
            key: ['session-info', '"toplevel"'],
            value: 'yes',
          }),
        ).toBe(0);
      },
    );
  },
);

describe.skipIf(!hasVlc)(
  'vlc_config and the vlcrc metrics on what real VLC wrote (needs vlc; setpriv as root)',
  () => {
    let env: ShellEnvironment;
    const vlcrc = { type: 'vlc_config', dest: 'vlcrc' };
    beforeAll(async () => {
      env = await createShellEnvironment();
    });
    afterAll(async () => {
      await env?.close();
    });

    it(
      "VLC's defaults score 0 on the changed settings and 1 on the defaults; the settings VLC saved score 1",
      { timeout: 120_000 },
      async () => {
        expect(metricFamilyOf('is_vlc_recordings_folder')).toBe('vlc');
        await vlcWritesConfig(env, {});
        const text = readFileSync(join(env.home.root, '.config/vlc/vlcrc'), 'utf8');
        expect(text).toMatch(/^#input-record-path=$/m);
        let ctx = contextOf(env, 'c1');
        // OSWorld's 8ba5ae7a rule
        expect(
          await grade(ctx, vlcrc, 'is_vlc_recordings_folder', { recording_file_path: '/home/user/Desktop' }),
        ).toBe(0);
        expect(
          await grade(ctx, vlcrc, 'check_one_instance_when_started_from_file', {
            expected_one_instance_when_started_from_file: 0,
          }),
        ).toBe(0);
        expect(
          await grade(ctx, vlcrc, 'check_one_instance_when_started_from_file', {
            expected_one_instance_when_started_from_file: 1,
          }),
        ).toBe(1);
        expect(
          await grade(ctx, vlcrc, 'check_global_key_play_pause', { expected_global_key_play_pause: 1 }),
        ).toBe(0);
        // qt-max-volume and qt-minimal-view as OSWorld reads them: a commented default, or its own default without Qt
        expect(await grade(ctx, vlcrc, 'check_qt_max_volume', { expected_qt_max_volume: 125 })).toBe(1);
        expect(await grade(ctx, vlcrc, 'check_qt_max_volume', { expected_qt_max_volume: 200 })).toBe(0);
        expect(await grade(ctx, vlcrc, 'check_qt_minimal_view', { expected_qt_minimal_view: 1 })).toBe(0);
        expect(await grade(ctx, vlcrc, 'check_qt_bgcone', { expected_qt_bgcone: 1 })).toBe(1);
        expect(await grade(ctx, vlcrc, 'check_qt_slider_colours', { type: 'blackish' })).toBe(0);
        expect(await grade(ctx, vlcrc, 'check_play_and_exit', { expected_play_and_exit: 1 })).toBe(0);

        await vlcWritesConfig(env, {
          'input-record-path': '/home/user/Desktop',
          'one-instance-when-started-from-file': false,
          'global-key-play-pause': 'Ctrl+Space',
          'play-and-exit': true,
        });
        // VLC sets each value in place of its commented default, e.g. `input-record-path=/home/user/Desktop` in [core]
        expect(readFileSync(join(env.home.root, '.config/vlc/vlcrc'), 'utf8')).toMatch(
          /^input-record-path=\/home\/user\/Desktop$/m,
        );
        ctx = contextOf(env, 'c2');
        expect(
          await grade(ctx, vlcrc, 'is_vlc_recordings_folder', { recording_file_path: '/home/user/Desktop' }),
        ).toBe(1);
        expect(
          await grade(ctx, vlcrc, 'is_vlc_recordings_folder', { recording_file_path: '/home/user/Videos' }),
        ).toBe(0);
        expect(
          await grade(ctx, vlcrc, 'check_one_instance_when_started_from_file', {
            expected_one_instance_when_started_from_file: 0,
          }),
        ).toBe(1);
        expect(
          await grade(ctx, vlcrc, 'check_global_key_play_pause', { expected_global_key_play_pause: 1 }),
        ).toBe(1);
        expect(await grade(ctx, vlcrc, 'check_play_and_exit', { expected_play_and_exit: 1 })).toBe(1);
      },
    );

    it.skipIf(!hasVlcQt)(
      'check_qt_max_volume and check_qt_minimal_view on Qt settings VLC saved (needs vlc-plugin-qt)',
      { timeout: 120_000 },
      async () => {
        await vlcWritesConfig(env, { 'qt-max-volume': 200, 'qt-minimal-view': true });
        const ctx = contextOf(env, 'c3');
        expect(await grade(ctx, vlcrc, 'check_qt_max_volume', { expected_qt_max_volume: 200 })).toBe(1);
        expect(await grade(ctx, vlcrc, 'check_qt_max_volume', { expected_qt_max_volume: 125 })).toBe(0);
        expect(await grade(ctx, vlcrc, 'check_qt_minimal_view', { expected_qt_minimal_view: 1 })).toBe(1);
      },
    );

    it.skipIf(!hasVlcQt)(
      'check_qt_slider_colours and check_qt_bgcone on Qt settings VLC saved (needs vlc-plugin-qt)',
      { timeout: 120_000 },
      async () => {
        expect(metricFamilyOf('check_qt_slider_colours')).toBe('vlc');
        const blackish = '0;0;0;20;20;20;40;40;40;90;90;90';
        await vlcWritesConfig(env, { 'qt-slider-colours': blackish, 'qt-bgcone': false });
        const text = readFileSync(join(env.home.root, '.config/vlc/vlcrc'), 'utf8');
        expect(text).toMatch(/^qt-slider-colours=0;0;0;20;20;20;40;40;40;90;90;90$/m);
        expect(text).toMatch(/^qt-bgcone=0$/m);
        const ctx = contextOf(env, 'c4');
        expect(await grade(ctx, vlcrc, 'check_qt_slider_colours', { type: 'blackish' })).toBe(1);
        expect(
          await grade(ctx, vlcrc, 'check_qt_slider_colours', {
            type: 'match',
            expected_qt_slider_colours: blackish,
          }),
        ).toBe(1);
        expect(
          await grade(ctx, vlcrc, 'check_qt_slider_colours', {
            type: 'match',
            expected_qt_slider_colours: '153;210;153;20;210;20;255;199;15;245;39;29',
          }),
        ).toBe(0);
        expect(await grade(ctx, vlcrc, 'check_qt_bgcone', { expected_qt_bgcone: 1 })).toBe(0);
        expect(await grade(ctx, vlcrc, 'check_qt_bgcone', { expected_qt_bgcone: 0 })).toBe(1);
        // one colour left light: not blackish
        await vlcWritesConfig(env, { 'qt-slider-colours': '0;0;0;20;20;20;40;40;40;200;90;90' });
        expect(
          await grade(contextOf(env, 'c5'), vlcrc, 'check_qt_slider_colours', { type: 'blackish' }),
        ).toBe(0);
      },
    );
  },
);
