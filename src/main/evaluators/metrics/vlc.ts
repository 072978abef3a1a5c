// OSWorld's VLC metrics (family `vlc`; desktop_env/evaluators/metrics/vlc.py): settings read from vlcrc the way
// OSWorld reads them, the player's status XML, full screen. vlcrc lines are matched by substring, commented
// defaults (`#qt-max-volume=125`) included, the last match winning — OSWorld's reading, kept.
import { DOMParser } from '@xmldom/xmldom';
import { registerMetricFamily } from '../family';
import { fail, verdict, type Metric, type MetricOutcome } from '../metric';
import { brief, isRecord, readText } from './inputs';

/** The value OSWorld reads for `needle` in vlcrc: after the last `=` of the last line containing it, or `fallback`. */
function vlcrcValue(text: string, needle: string, fallback: string): string {
  let value = fallback;
  for (const line of text.split('\n'))
    if (line.includes(needle)) value = (line.split('=').pop() ?? '').trim();
  return value;
}

/** A metric comparing one vlcrc setting with `rule[ruleKey]` (a number counts as its text). */
function setting(needle: string, ruleKey: string, fallback: string): Metric {
  return async (result, expected) => {
    const text = await readText(result);
    if (text === undefined) return fail(`VLC config ${brief(result)} cannot be read`);
    const want = isRecord(expected) ? String(expected[ruleKey]) : '';
    const got = vlcrcValue(text, needle, fallback);
    return verdict(
      got === want,
      `${needle.replace(/=$/, '')} is ${want}`,
      `${needle.replace(/=$/, '')} is '${got}', expected '${want}'`,
    );
  };
}

/** check_qt_slider_colours — `{type: match, expected_qt_slider_colours}` compares the text; `{type: blackish}` needs
 * every colour's R, G and B below 100. */
async function checkQtSliderColours(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`VLC config ${brief(result)} cannot be read`);
  const got = vlcrcValue(text, 'qt-slider-colours', '153;210;153;20;210;20;255;199;15;245;39;29');
  const rule = isRecord(expected) ? expected : {};
  if (rule.type === 'match')
    return verdict(
      got === rule.expected_qt_slider_colours,
      `slider colours are ${got}`,
      `slider colours are '${got}', expected '${String(rule.expected_qt_slider_colours)}'`,
    );
  if (rule.type === 'blackish') {
    const v = got.split(';').map((x) => Number.parseInt(x, 10));
    if (v.some(Number.isNaN)) return fail(`slider colours '${got}' are not numbers`);
    const colours = [];
    for (let i = 0; i + 2 < v.length; i += 3) colours.push(v.slice(i, i + 3));
    return verdict(
      colours.every((c) => c.every((x) => x < 100)),
      'every slider colour is blackish',
      `slider colours '${got}' are not all blackish`,
    );
  }
  return fail(`unknown type ${brief(rule.type)}`);
}

/** check_global_key_play_pause — `expected_global_key_play_pause` 1 when a global play/pause key is set, 0 when empty. */
async function checkGlobalKeyPlayPause(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`VLC config ${brief(result)} cannot be read`);
  let got = '0';
  for (const line of text.split('\n'))
    if (line.includes('global-key-play-pause='))
      got = (line.split('=').pop() ?? '').trim() === '' ? '0' : '1';
  const want = isRecord(expected) ? String(expected.expected_global_key_play_pause) : '';
  return verdict(
    got === want,
    `global play/pause key ${got === '1' ? 'set' : 'unset'}`,
    `global play/pause key is ${got}, expected ${want}`,
  );
}

/** is_vlc_recordings_folder — the first uncommented line naming `input-record-path` holds `recording_file_path`. */
async function isVlcRecordingsFolder(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`VLC config ${brief(result)} cannot be read`);
  const want = isRecord(expected) ? String(expected.recording_file_path) : '';
  const line = text
    .split('\n')
    .find((l) => !l.startsWith('#') && l.trim() && l.includes('input-record-path'));
  if (!line) return fail('no input-record-path set');
  const got = (line.split('=').pop() ?? '').trim();
  return verdict(got === want, `recordings go to ${want}`, `recordings go to '${got}', expected '${want}'`);
}

/** is_vlc_fullscreen — `result`: the window size, `expected`: the screen size; 1 when they are equal. */
async function isVlcFullscreen(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!isRecord(result) || !isRecord(expected)) return fail('window or screen size unknown');
  return verdict(
    result.width === expected.width && result.height === expected.height,
    'the window fills the screen',
    `window ${String(result.width)}×${String(result.height)}, screen ${String(expected.width)}×${String(expected.height)}`,
  );
}

/**
 * is_vlc_playing — `result`: VLC's status.xml; 1 when the state is `playing` and, for `{type: file_name}`, the meta
 * filename (else title, uri, location, name) ends with `file_name`; for `{type: url}`, the meta url (else URI,
 * location, title, filename) contains `url`, is its last path name, or is a URL on its host containing its path.
 */
async function isVlcPlaying(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`VLC status ${brief(result)} cannot be read`);
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
  }).parseFromString(text, 'application/xml');
  const root = doc.documentElement;
  const state = root
    ? Array.from(root.childNodes).find((n) => (n as Element).tagName === 'state')?.textContent
    : undefined;
  if (state !== 'playing') return fail(`VLC is ${state ?? 'not reporting a state'}`);
  const info = (category: string, name: string): string | undefined => {
    for (const c of Array.from(doc.getElementsByTagName('category'))) {
      if (c.getAttribute('name') !== category || (c.parentNode as Element | null)?.tagName !== 'information')
        continue;
      for (const i of Array.from(c.getElementsByTagName('info')))
        if (i.getAttribute('name') === name && i.textContent) return i.textContent;
    }
    return undefined;
  };
  const first = (names: [string, string][]) => names.map(([c, n]) => info(c, n)).find((v) => v !== undefined);
  const rule = isRecord(expected) ? expected : {};
  if (rule.type === 'file_name') {
    const got = first(['filename', 'title', 'uri', 'location', 'name'].map((n) => ['meta', n]));
    const want = String(rule.file_name);
    if (!got) return fail('no file information in the status');
    return verdict(
      got.split('/').pop() === want || got.endsWith(want),
      `playing ${want}`,
      `playing '${got}', expected ${want}`,
    );
  }
  if (rule.type === 'url') {
    const got = first([
      ...['url', 'URI', 'location', 'title', 'filename'].map((n): [string, string] => ['meta', n]),
      ['Stream 0', 'Codec'],
      ['Stream 0', 'Type'],
      ['Stream 0', 'Language'],
    ]);
    const want = String(rule.url);
    if (!got) return fail('no URL information in the status');
    if (got.includes(want)) return verdict(true, `playing ${want}`, '');
    try {
      const w = new URL(want);
      if (got === w.pathname.split('/').pop())
        return verdict(true, `playing ${want} (shown by its file name)`, '');
      if (got.includes('://')) {
        const g = new URL(got);
        if (g.host === w.host && g.pathname.includes(w.pathname)) return verdict(true, `playing ${want}`, '');
      }
    } catch {
      /* not URLs: no match */
    }
    return fail(`playing '${got}', expected ${want}`);
  }
  return fail(`unknown type ${brief(rule.type)}`);
}

registerMetricFamily('vlc', {
  check_qt_bgcone: setting('qt-bgcone=', 'expected_qt_bgcone', '1'),
  check_qt_max_volume: setting('qt-max-volume=', 'expected_qt_max_volume', '125'),
  check_qt_minimal_view: setting('qt-minimal-view=', 'expected_qt_minimal_view', '0'),
  check_one_instance_when_started_from_file: setting(
    'one-instance-when-started-from-file=',
    'expected_one_instance_when_started_from_file',
    '1',
  ),
  check_play_and_exit: setting('play-and-exit=', 'expected_play_and_exit', '0'),
  check_qt_slider_colours: checkQtSliderColours,
  check_global_key_play_pause: checkGlobalKeyPlayPause,
  is_vlc_recordings_folder: isVlcRecordingsFolder,
  is_vlc_fullscreen: isVlcFullscreen,
  is_vlc_playing: isVlcPlaying,
});
