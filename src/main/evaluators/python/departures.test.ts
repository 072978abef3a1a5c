// The pattern layer's departures are listed under every metric that takes patterns, and each is still true: the
// constructs it names are refused (a grading error), and Unicode tables still differ from Python 3.11's.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { departures, metrics } from '../catalog';
import { compilePython, PythonPatternError } from './re';
import { pyYamlLoad } from './yaml';
import { patternMetrics } from './departures';

const python = (code: string) => execFileSync('/usr/bin/python3', ['-c', code], { encoding: 'utf8' }).trim();

describe('departures of the Python pattern layer (proctor evaluators --departures)', () => {
  it('every metric that takes re patterns is registered and lists both pattern departures', () => {
    for (const m of patternMetrics) {
      expect(metrics.has(m), m).toBe(true);
      expect(
        departures()
          .filter((d) => d.metric === m)
          .map((d) => d.case),
      ).toEqual(
        expect.arrayContaining([
          'patterns Python accepts that the pattern layer refuses',
          'characters new since Unicode 14 in \\w \\d \\s \\b and IGNORECASE',
        ]),
      );
    }
  });

  const refused = [
    '(a)?(?(1)b|c)',
    '\\N{DIGIT ONE}',
    '(a)?x\\1',
    '(a)(?i:\\1)',
    '(a)(?<=\\1)',
    '(?ai)(k)\\1',
    '(a|)*b',
  ];
  it.each(refused)(
    'Python compiles %s; the layer refuses it as not honoured (never a silent verdict)',
    (pattern) => {
      let error: unknown;
      try {
        compilePython(pattern);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(PythonPatternError);
      expect((error as PythonPatternError).pythonRaises).toBeFalsy();
    },
  );

  it.skipIf(!existsSync('/usr/bin/python3'))(
    "Python 3.11: re.search('\\\\w', '\\U0001e4d0') is None (Unicode 14); Proctor matches — the departure still holds (skipped without /usr/bin/python3)",
    () => {
      expect(python("import re; print(re.search(r'\\w', '\\U0001e4d0'))")).toBe('None');
      expect(compilePython('\\w').search('\u{1E4D0}')).not.toBeNull();
    },
  );

  it("YAML dates: PyYAML's datetime.date(2024, 1, 5) is read as a datetime — the check_json departure still holds", () => {
    expect((pyYamlLoad('v: 2024-01-05') as { v: unknown }).v).toBeInstanceOf(Date);
    expect(departures().some((d) => d.metric === 'check_json' && d.case === 'YAML dates (is_yaml)')).toBe(
      true,
    );
  });
});
