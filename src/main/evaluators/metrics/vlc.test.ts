import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
const file = (name: string, text: string): string => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};

/** vlcrc in VLC's format: `#key=default` for untouched settings, `key=value` for set ones. */
const vlcrc = (set: string[]) =>
  [
    '\ufeff###',
    '### vlc 3.0.20',
    '###',
    '',
    '[qt] # Qt interface',
    '',
    '# Maximum Volume displayed (integer)',
    '#qt-max-volume=125',
    '',
    '#qt-minimal-view=0',
    '#qt-bgcone=1',
    '#qt-slider-colours=153;210;153;20;210;20;255;199;15;245;39;29',
    '',
    '[core] # core program',
    '#input-record-path=',
    '#one-instance-when-started-from-file=1',
    '#play-and-exit=0',
    '# Play/Pause (string)',
    '#global-key-play-pause=',
    ...set,
    '',
  ].join('\n');

const status = (state: string, filename: string) => `<?xml version="1.0" encoding="utf-8" standalone="yes" ?>
<root><fullscreen>false</fullscreen><volume>256</volume><state>${state}</state>
<information><category name="meta"><info name="filename">${filename}</info><info name="title">${filename}</info></category>
<category name="Stream 0"><info name="Codec">MPEG Audio layer 1/2 (mpga)</info><info name="Type">Audio</info></category></information></root>`;

describe('OSWorld vlc-family metrics on vlcrc and status XML', () => {
  it('are in the vlc family', () => expect(metricFamilyOf('check_qt_max_volume')).toBe('vlc'));

  it('settings: a set value counts, an untouched one reads its commented default (as OSWorld)', async () => {
    const set = file(
      'set',
      vlcrc([
        'qt-max-volume=200',
        'qt-minimal-view=1',
        'qt-bgcone=0',
        'one-instance-when-started-from-file=0',
        'play-and-exit=1',
        'global-key-play-pause=Ctrl+Space',
        'input-record-path=/home/user/Desktop',
      ]),
    );
    const plain = file('plain', vlcrc([]));
    expect((await runMetric('check_qt_max_volume', set, { expected_qt_max_volume: 200 })).score).toBe(1);
    expect((await runMetric('check_qt_max_volume', plain, { expected_qt_max_volume: 200 })).score).toBe(0);
    expect((await runMetric('check_qt_minimal_view', set, { expected_qt_minimal_view: 1 })).score).toBe(1);
    expect((await runMetric('check_qt_bgcone', plain, { expected_qt_bgcone: 0 })).score).toBe(0);
    expect((await runMetric('check_qt_bgcone', set, { expected_qt_bgcone: 0 })).score).toBe(1);
    expect(
      (
        await runMetric('check_one_instance_when_started_from_file', set, {
          expected_one_instance_when_started_from_file: 0,
        })
      ).score,
    ).toBe(1);
    expect((await runMetric('check_play_and_exit', plain, { expected_play_and_exit: 1 })).score).toBe(0);
    expect(
      (await runMetric('check_global_key_play_pause', set, { expected_global_key_play_pause: 1 })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_global_key_play_pause', plain, { expected_global_key_play_pause: 1 })).score,
    ).toBe(0);
    expect(
      (await runMetric('is_vlc_recordings_folder', set, { recording_file_path: '/home/user/Desktop' })).score,
    ).toBe(1);
    expect(
      (await runMetric('is_vlc_recordings_folder', plain, { recording_file_path: '/home/user/Desktop' }))
        .score,
    ).toBe(0);
  });

  it('check_qt_slider_colours: match and blackish', async () => {
    const dark = file('dark', vlcrc(['qt-slider-colours=10;10;10;20;20;20;0;0;0;5;5;5']));
    expect((await runMetric('check_qt_slider_colours', dark, { type: 'blackish' })).score).toBe(1);
    expect(
      (await runMetric('check_qt_slider_colours', file('p2', vlcrc([])), { type: 'blackish' })).score,
    ).toBe(0);
    expect(
      (
        await runMetric('check_qt_slider_colours', dark, {
          type: 'match',
          expected_qt_slider_colours: '10;10;10;20;20;20;0;0;0;5;5;5',
        })
      ).score,
    ).toBe(1);
  });

  it('is_vlc_playing and is_vlc_fullscreen', async () => {
    expect(
      (
        await runMetric('is_vlc_playing', file('s1.xml', status('playing', 'song.mp3')), {
          type: 'file_name',
          file_name: 'song.mp3',
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('is_vlc_playing', file('s2.xml', status('paused', 'song.mp3')), {
          type: 'file_name',
          file_name: 'song.mp3',
        })
      ).score,
    ).toBe(0);
    expect(
      (
        await runMetric('is_vlc_playing', file('s3.xml', status('playing', 'other.mp3')), {
          type: 'file_name',
          file_name: 'song.mp3',
        })
      ).score,
    ).toBe(0);
    expect(
      (await runMetric('is_vlc_fullscreen', { width: 1920, height: 1080 }, { width: 1920, height: 1080 }))
        .score,
    ).toBe(1);
    expect(
      (await runMetric('is_vlc_fullscreen', { width: 800, height: 600 }, { width: 1920, height: 1080 }))
        .score,
    ).toBe(0);
  });
});
