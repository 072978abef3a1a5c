// `proctor dataflow` and `proctor export` read their options by one table per subcommand: an unknown or misplaced
// option is refused naming the closest the subcommand knows, and the usage is generated from the tables.
import { describe, expect, it } from 'vitest';
import { main } from '../main';

async function call(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (l) => (out += l + '\n'), err: (l) => (err += l + '\n') });
  return { code, out, err };
}

describe('dataflow and export options, one table per subcommand', () => {
  it('names the closest option of the subcommand for a mistyped one', async () => {
    for (const [argv, bad, near] of [
      [['dataflow', 'route', 'r', '--outt', 'o'], '--outt', '--out'],
      [['dataflow', 'run', 't', '--out', 'o', '--threshhold', '5'], '--threshhold', '--threshold'],
      [['dataflow', 'execute', 'r', '--out', 'o', '--eval-modle', 'm'], '--eval-modle', '--eval-model'],
      [['dataflow', 'judge', 'r', '--concurency', '2'], '--concurency', '--concurrency'],
      [['export', 'video', 'r', '--gfi'], '--gfi', '--gif'],
      [['export', 'labels', '--fromat', 'csv'], '--fromat', '--format'],
      [['export', 'html', 'r', '--out', 'o', '--titel', 'T'], '--titel', '--title'],
    ] as const) {
      const r = await call([...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toContain(`unknown option '${bad}' (closest known: '${near}')`);
      expect(r.err.match(/closest known/g)).toHaveLength(1);
    }
  });

  it('refuses an option another subcommand takes (instantiate does not match controls; video has no --prices)', async () => {
    const inst = await call(['dataflow', 'instantiate', 't', '--out', 'o', '--strict']);
    expect(inst.code).toBe(2);
    expect(inst.err).toMatch(/unknown option '--strict'/);
    const video = await call(['export', 'video', 'r', '--prices', 'p.json']);
    expect(video.code).toBe(2);
    expect(video.err).toMatch(/unknown option '--prices'/);
  });

  it('checks values where they are read: --threshold, --type, --screenshots, --max-images, --format', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['dataflow', 'run', 't', '--out', 'o', '--threshold', '101'],
        /--threshold must be a number from 0 to 100/,
      ],
      [
        ['dataflow', 'route', 'r', '--out', 'o', '--type', 'other'],
        /--type must be one of instantiation, execution, dataflow/,
      ],
      [
        ['dataflow', 'judge', 'r', '--screenshots', 'some'],
        /--screenshots is 'all' or 'first-last', not 'some'/,
      ],
      [['dataflow', 'judge', 'r', '--max-images', '0'], /--max-images must be a whole number ≥ 1/],
      [['export', 'labels', '--format', 'xml'], /--format must be jsonl or csv, not 'xml'/],
      [['dataflow', 'run', 't', '--model'], /--model needs a value/],
    ];
    for (const [argv, message] of cases) {
      const r = await call(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(message);
    }
  });

  it('demo refuses model options with the reason, and takes --out=DIR', async () => {
    const r = await call(['dataflow', 'demo', '--model', 'gpt-x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/demo runs with the stand-in builtin-standin: use run for a served model/);
    const files = await call(['dataflow', 'demo', 'some-task.json', '--out=x']);
    expect(files.err).toMatch(/demo runs the bundled tasks: give no task files/);
  });

  it('takes --name=value and the subcommand word first; says what to export', async () => {
    const none = await call(['export']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/say what to export: labels, trajectory, video, html/);
    const wrong = await call(['export', 'pdf', 'r']);
    expect(wrong.err).toMatch(/cannot export 'pdf'; known: labels, trajectory, video, html/);
    const traj = await call(['export', 'trajectory', 'r']);
    expect(traj.err).toMatch(/export trajectory needs --out DIR/);
  });

  it('generates the usage of every subcommand from its table', async () => {
    const df = await call(['dataflow', '--help']);
    expect(df.code).toBe(0);
    for (const line of [
      /^ {2}--threshold N +a control's text matches/m,
      /^ {2}--eval-base-url URL +the evaluate stage's server/m,
      /^ {2}--type T +file every record/m,
      /^ {2}--max-images N +screenshots sent at most \(default 40\)/m,
      /^Model options \(run, instantiate, execute\):$/m,
    ])
      expect(df.out).toMatch(line);
    const ex = await call(['export', '--help']);
    for (const line of [
      /^ {2}--history +every label event/m,
      /^ {2}--prices FILE +USD per million/m,
      /^ {2}--gif +also a small GIF/m,
      /^ {2}--copy +copy the files/m,
      /^ {2}--task KEY +only this task .*may be repeated/m,
    ])
      expect(ex.out).toMatch(line);
  });
});
