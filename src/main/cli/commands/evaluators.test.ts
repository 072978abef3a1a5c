// `proctor evaluators`: the OSWorld families and the getters' needs, through the CLI's own entry.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { main } from '../main';

async function proctor(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('proctor evaluators', () => {
  it('lists metrics by family and getters with what they need', async () => {
    const r = await proctor('evaluators', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      metric_families: Record<string, string[]>;
      getter_needs: Record<string, { family: string; needs: string[] }>;
    };
    expect(j.metric_families.documents).toContain('compare_docx_files');
    expect(j.metric_families.browser).toContain('is_expected_bookmarks');
    expect(j.getter_needs.cloud_file).toEqual({ family: 'os', needs: ['downloads'] });
    const text = await proctor('evaluators');
    expect(text.out).toMatch(/^ {2}vlc: .*check_qt_max_volume/m);
    expect(text.out).toMatch(/^ {2}history \[browser\] needs files, commands$/m);
    expect(text.out).toMatch(/known departures .*compare_zip_files/);
  });

  it('--list gives a line per name with its family, needs and departures', async () => {
    const r = await proctor('evaluators', '--list');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^getter +vlc_config +vlc +needs files, commands$/m);
    expect(r.out).toMatch(/^metric +compare_zip_files +vscode +departs under \w+: /m);
    expect(r.out).toMatch(/^metric +compare_sql +- *$/m);
    const j = JSON.parse((await proctor('evaluators', '--list', '--json')).out) as {
      evaluators: { name: string; kind: string; family?: string; needs: string[] }[];
    };
    expect(j.evaluators.find((e) => e.name === 'cloud_file')).toMatchObject({
      kind: 'getter',
      family: 'os',
      needs: ['downloads'],
    });
    expect((await proctor('evaluators', '--list', '--departures')).code).toBe(2);
  });

  it('stops quietly when its reader goes away (proctor … | head)', () => {
    const r = spawnSync(
      'sh',
      ['-c', 'node bin/proctor.mjs evaluators --list | head -1; echo "status ${PIPESTATUS:-?}"'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.stdout.split('\n')[0]).toMatch(/^metric /);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
  });
});
