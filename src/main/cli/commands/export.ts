// `proctor export labels|trajectory|video|html`: people's labels with provenance (JSONL / CSV); each task's trajectory
// as one JSON in a versioned schema (src/main/share/trajectory-export.ts); an MP4 per task (src/main/video);
// a static read-only site of the workbench (src/main/share/site).
import { resolve } from 'node:path';
import { shownPath, UsageError, type CliCommand, type CliIo } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions, type OptionSpec } from '../options/table';
import { labelledItems } from '../../annotate/items';
import { exportRows, rowsAsCsv, rowsAsJsonl } from '../../annotate/label-rows';
import { writeFileAtomic } from '../../store';
import { readPriceFile, runDirsOf } from '../../report';
import { exportTrajectories } from '../../share/trajectory-export';
import { exportVideos } from '../../video/video';
import { exportSite, sourcesOf, type SiteProgress } from '../../share/site/site';
import { ensureUiBuilt } from '../../server/ui-build';

const taskSpec = {
  kind: 'string',
  value: 'KEY',
  repeatable: true,
  help: 'only this task (<domain>/<task id>); may be repeated',
} as const satisfies OptionSpec;

/** Each export's options: what it reads, and nothing it would ignore. */
const exportOptions = {
  labels: optionTable({
    format: {
      kind: 'string',
      value: 'F',
      complete: ['jsonl', 'csv'],
      help: 'jsonl | csv (default jsonl, csv when --out ends in .csv)',
      parse: (v: string) => {
        if (v !== 'jsonl' && v !== 'csv') throw new UsageError(`--format must be jsonl or csv, not '${v}'`);
        return v as 'jsonl' | 'csv';
      },
    },
    out: {
      kind: 'string',
      value: 'FILE',
      complete: 'file',
      help: 'the file to write (default: standard output)',
    },
    root: {
      kind: 'string',
      value: 'DIR',
      complete: 'dir',
      help: 'with no run folder: every run below DIR (default the current folder)',
    },
    history: {
      kind: 'boolean',
      help: "every label event instead, each with the at of the person's earlier events it supersedes",
    },
  }),
  trajectory: optionTable({
    out: {
      kind: 'string',
      value: 'DIR',
      complete: 'dir',
      help: 'where the trajectories and index.json go (needed)',
    },
    task: taskSpec,
    prices: {
      kind: 'string',
      value: 'FILE',
      complete: 'file',
      help: 'USD per million tokens per model, as in `proctor report`, for cost the run did not record',
    },
  }),
  video: optionTable({
    out: {
      kind: 'string',
      value: 'DIR',
      complete: 'dir',
      help: 'where the videos go (default ./videos), as DIR/<domain>/<task>.mp4',
    },
    task: taskSpec,
    gif: { kind: 'boolean', help: 'also a small GIF preview beside each MP4' },
  }),
  html: optionTable({
    out: { kind: 'string', value: 'DIR', complete: 'dir', help: 'the site folder (needed)' },
    copy: { kind: 'boolean', help: 'copy the files even where a hard link would do' },
    title: {
      kind: 'string',
      value: 'TEXT',
      help: 'what the site\'s header names (default: the run\'s folder, or "N runs")',
    },
  }),
} as const;
type ExportKind = keyof typeof exportOptions;

/** Every export's options, for the closest-name hint and shell completion. */
const options = {
  ...exportOptions.labels,
  ...exportOptions.trajectory,
  ...exportOptions.video,
  ...exportOptions.html,
  out: { ...exportOptions.labels.out, value: 'FILE|DIR', help: 'where the export goes' },
};

const usage = `Usage: proctor export labels <run-dir>… [--format jsonl|csv] [--out FILE] [--root DIR] [--history]
       proctor export trajectory <run-dir>… --out DIR [--task KEY]… [--prices FILE]
       proctor export video <run-dir> [--task KEY]… [--gif] [--out DIR]
       proctor export html <run-dir>… --out DIR [--copy] [--title TEXT]

${usageText(
  `labels: each person's current labels of the runs (default: every run below --root DIR, default the current
folder): their latest run label and their latest mark of each step, with a lead's settlements and comments.
Columns: run (the folder), run_id, task, person, role, complete, step, mark, note, comment, seen (blind | open),
settles (a lead's reason), source (workbench, or the imported file and line), supersedes and at.
JSONL by default; --out FILE, else standard output.`,
  exportOptions.labels,
)}

${usageText(
  `trajectory: each task as one JSON (resources/schemas/trajectory-export.schema.json, format proctor-trajectory,
version 1): steps with their typed actions, the observation files (relative to the run folder), the model's
messages, tokens, cost and the verdicts; DIR/index.json lists the files. Works on Proctor runs and on the
OSWorld, Spider2-V, fork and UFO folders Proctor reads (a folder above runs stands for every run below it).`,
  exportOptions.trajectory,
)}

${usageText(
  `video: an MP4 per task from its stored screenshots (needs ffmpeg): each step with its click mark, a zoom toward
each click, the step number, action and the model's thought as a caption, and the verdict at the end.`,
  exportOptions.video,
)}

${usageText(
  `html: a static, read-only site of the workbench for the runs — run table, statistics with breakdowns, each task's
replay with its overlays, Set-of-Mark, verdicts and labels — that opens from file:// (DIR/index.html) with no
server, or from any static host; links to a run, task or step work in it. Screenshots and other files are put
once below DIR/files (hard-linked when on the same filesystem, else copied); files a run names outside its own
folder are refused and listed. An existing DIR is replaced only when it is an earlier export.`,
  exportOptions.html,
)}`;

const thousands = (n: number) => n.toLocaleString('en-US');
const sizeText = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GB`
    : bytes >= 1024 ** 2
      ? `${Math.round(bytes / 1024 ** 2)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

async function html(
  runDirs: string[],
  values: { out?: string; copy?: boolean; title?: string },
  io: CliIo,
): Promise<number> {
  if (!values.out) throw new UsageError('export html needs --out DIR');
  try {
    sourcesOf(runDirs); // a folder without runs is said before the UI is built (that can take a minute)
    const uiDir = await ensureUiBuilt((line) => io.err(line));
    let last = performance.now();
    let said = '';
    const progress = (p: SiteProgress) => {
      const now = performance.now();
      if (now - last < 2000 && p.done < p.total) return;
      const text =
        p.phase === 'answers'
          ? `  read ${thousands(p.done)} of ${thousands(p.total)} tasks…`
          : `  put ${thousands(p.done)} of ${thousands(p.total)} files…`;
      if (text === said) return;
      last = now;
      said = text;
      io.err(text);
    };
    const r = await exportSite(runDirs, values.out, {
      uiDir,
      copy: values.copy,
      title: values.title,
      onProgress: progress,
    });
    for (const f of r.refused.slice(0, 10))
      io.err(`refused ${f.run}${f.task ? ` ${f.task}` : ''}: ${f.path}: ${f.why}`);
    if (r.refused.length > 10) io.err(`… ${r.refused.length - 10} more refused files`);
    io.out(
      `${sizeText(r.bytes)}, ${thousands(r.screenshots)} screenshots, written in ${r.seconds < 10 ? r.seconds.toFixed(1) : Math.round(r.seconds)} s`,
    );
    io.out(
      `${r.runs} run${r.runs === 1 ? '' : 's'}, ${thousands(r.tasks)} tasks, ${thousands(r.files)} files (${thousands(r.linked)} hard-linked)${r.refused.length ? `, ${r.refused.length} refused` : ''}`,
    );
    io.out(`open ${shownPath(resolve(r.out, 'index.html'))} (or put ${shownPath(r.out)} on any static host)`);
    return 0;
  } catch (e) {
    io.err(`proctor export: ${(e as Error).message}`);
    return 1;
  }
}

async function labels(
  runDirs: string[],
  values: { format?: 'jsonl' | 'csv'; out?: string; root?: string; history?: boolean },
  io: CliIo,
): Promise<number> {
  const format = values.format ?? (values.out?.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  if (format !== 'jsonl' && format !== 'csv')
    throw new UsageError(`--format must be jsonl or csv, not '${format}'`);
  let text: string;
  try {
    const rows = exportRows(labelledItems(runDirs, resolve(values.root ?? '.')), { history: values.history });
    text = format === 'csv' ? rowsAsCsv(rows) : rowsAsJsonl(rows);
  } catch (e) {
    io.err(`proctor export: ${(e as Error).message}`);
    return 1;
  }
  if (values.out) await writeFileAtomic(values.out, text);
  else io.out(text.replace(/\n$/, ''));
  return 0;
}

export const command: CliCommand = {
  name: 'export',
  summary:
    "export people's labels (JSONL / CSV), trajectories as versioned JSON, replay videos (MP4), or a static site",
  usage,
  options,
  async run(argv, io) {
    const [what, ...rest] = argv;
    const known = Object.keys(exportOptions).join(', ');
    if (!what || what.startsWith('-')) throw new UsageError(`say what to export: ${known}`);
    if (!Object.hasOwn(exportOptions, what)) throw new UsageError(`cannot export '${what}'; known: ${known}`);
    const kind = what as ExportKind;
    if (kind === 'labels') {
      const { values, positionals } = parseOptions(exportOptions.labels, rest);
      return labels(positionals, values, io);
    }
    if (kind === 'html') {
      const { values, positionals } = parseOptions(exportOptions.html, rest);
      if (!positionals.length) throw new UsageError('export html needs a run folder');
      return html(positionals, values, io);
    }
    if (kind === 'trajectory') {
      const { values, positionals: runDirs } = parseOptions(exportOptions.trajectory, rest);
      if (!runDirs.length) throw new UsageError('export trajectory needs a run folder');
      if (!values.out) throw new UsageError('export trajectory needs --out DIR');
      try {
        const prices = values.prices ? readPriceFile(values.prices) : undefined;
        const dirs = runDirs.flatMap((d) => runDirsOf(d));
        const files = await exportTrajectories(dirs, values.out, { prices, tasks: values.task });
        io.out(
          `${files.length} trajectories of ${dirs.length} run${dirs.length === 1 ? '' : 's'} written to ${shownPath(resolve(values.out))} (index.json lists them)`,
        );
        return 0;
      } catch (e) {
        io.err(`proctor export: ${(e as Error).message}`);
        return 1;
      }
    }
    const { values, positionals: runDirs } = parseOptions(exportOptions.video, rest);
    if (!runDirs.length) throw new UsageError('export video needs a run folder');
    if (runDirs.length !== 1) throw new UsageError('export video takes one run folder');
    const out = resolve(values.out ?? 'videos');
    try {
      const started = performance.now();
      const videos = await exportVideos(runDirs[0], out, { tasks: values.task, gif: values.gif });
      for (const v of videos)
        io.out(
          `${shownPath(v.file)}  ${v.frames} frames, ${v.seconds.toFixed(1)} s${v.gif ? `  (preview ${shownPath(v.gif)})` : ''}`,
        );
      io.out(
        `${videos.length} video${videos.length === 1 ? '' : 's'} written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      return 0;
    } catch (e) {
      io.err(`proctor export: ${(e as Error).message}`);
      return 1;
    }
  },
};
