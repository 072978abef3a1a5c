// What detectors look at: the trajectory's facts, its shell commands with the folder each ran in, the files the
// run obtained (downloaded, cloned, copied or unpacked from those) and created, and what the task says — its
// instruction, its `safety` declaration, its folders and the files its setup placed.
import type { StepRecord } from '../../shared/run';
import type { SetupStep, TaskSafety } from '../../shared/task';
import { factsOf, hostOf, urlsIn, type Fact } from './facts';
import { canonicalPath, folderOf, isWithin, pathsIn } from './paths';
import { operands, type SimpleCommand } from './shell';

/** What is known of the task a trajectory ran (any part may be missing for other harnesses' runs). */
export interface TaskInfo {
  instruction?: string;
  safety?: TaskSafety;
  /** The task's setup steps: files they place are the task's own, not obtained by the agent. */
  setup?: SetupStep[];
  /** The task file, for provenance. */
  file?: string;
}

/** A shell command with the folder it ran in and the fact it belongs to. */
export interface RunCommand {
  cmd: SimpleCommand;
  /** Position among the run's commands (files made by earlier commands, even of the same line, count as before). */
  seq: number;
  cwd: string;
  fact: Fact;
  /** A word of the command as a canonical path from the command's folder. */
  path(word: string): string;
}

/** A file (or a whole tree) the run got from elsewhere or wrote itself, and when. */
export interface RunFile {
  path: string;
  tree: boolean;
  /** `seq` of the command that made it (-1: it was there before, e.g. the downloads folder). */
  seq: number;
  step: number;
  how: string;
}

export interface SafetyContext {
  steps: readonly StepRecord[];
  facts: Fact[];
  commands: RunCommand[];
  task: TaskInfo;
  /** The instruction, lowercased ('' when unknown). */
  instruction: string;
  /** Folders the task works in: declared `safety.paths`, paths the instruction names, folders of placed files. */
  taskPaths: string[];
  /** Files the task's setup placed (canonical). */
  placed: string[];
  obtained: RunFile[];
  created: RunFile[];
  /** Folders browsers download into: a file there that setup did not place was obtained during the task. */
  downloadDirs: string[];
  /** The file (or tree) `path` was obtained as before command `seq`, if it was. */
  obtainedBefore(path: string, seq: number): RunFile | undefined;
  /** Whether the run itself made `path` (or the tree holding it) before command `seq`. */
  createdBefore(path: string, seq: number): boolean;
}

const DOWNLOAD_DIRS = ['~/Downloads'];
const PLACING_KEYS = new Set(['path', 'remote_path', 'dest', 'destination', 'file', 'vm_path', 'target']);

/** Files a task's setup places (`upload_file_to_vm` remote_path, `download` files[].path, `open` path, …). */
function placedPaths(setup: readonly SetupStep[]): string[] {
  const out = new Set<string>();
  const visit = (v: unknown, key?: string, depth = 0) => {
    if (depth > 6) return;
    if (typeof v === 'string') {
      if (key && PLACING_KEYS.has(key) && /^(\/|~)/.test(v)) out.add(canonicalPath(v));
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, key, depth + 1));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k, depth + 1);
  };
  for (const s of setup) visit(s.args);
  return [...out];
}

const baseName = (p: string) => p.split('/').filter(Boolean).pop() ?? '';
const urlFile = (url: string) => {
  try {
    return decodeURIComponent(baseName(new URL(url).pathname)) || 'index.html';
  } catch {
    return 'index.html';
  }
};

/** Where a fetch command wrote its download (empty: to stdout). */
function downloadsOf(rc: RunCommand): string[] {
  const { cmd } = rc;
  const urls = cmd.args.flatMap((a) => urlsIn(a));
  const a = cmd.args;
  const out: string[] = [];
  const valueAfter = (i: number) => a[i + 1];
  if (cmd.program === 'curl' && urls.length) {
    let dir = rc.cwd;
    let remoteName = false;
    for (let i = 0; i < a.length; i++) {
      const w = a[i];
      if (/^-[A-Za-z]*o$/.test(w) || w === '--output') out.push(rc.path(valueAfter(i) ?? ''));
      else if (w.startsWith('--output=')) out.push(rc.path(w.slice(9)));
      else if (w === '--output-dir') dir = rc.path(valueAfter(i) ?? '.');
      else if (/^-[A-Za-z]*O[A-Za-z]*$/.test(w) || w === '--remote-name' || w === '--remote-name-all')
        remoteName = true;
    }
    if (remoteName) out.push(...urls.map((u) => canonicalPath(urlFile(u), dir)));
  } else if (cmd.program === 'wget' && urls.length) {
    let dir = rc.cwd;
    let named: string | undefined;
    for (let i = 0; i < a.length; i++) {
      const w = a[i];
      if (w === '-O' || w === '--output-document') named = valueAfter(i);
      else if (w.startsWith('--output-document=')) named = w.slice(18);
      else if (/^-O./.test(w)) named = w.slice(2);
      else if (w === '-P' || w === '--directory-prefix') dir = rc.path(valueAfter(i) ?? '.');
      else if (w.startsWith('--directory-prefix=')) dir = rc.path(w.slice(19));
    }
    if (named === '-') return [];
    out.push(...(named ? [canonicalPath(named, rc.cwd)] : urls.map((u) => canonicalPath(urlFile(u), dir))));
  } else if (cmd.program === 'aria2c' && urls.length)
    out.push(...urls.map((u) => canonicalPath(urlFile(u), rc.cwd)));
  if ((cmd.program === 'curl' || cmd.program === 'wget' || cmd.program === 'fetch') && urls.length)
    for (const r of cmd.redirects) if (r.op !== '<') out.push(rc.path(r.target));
  return out.filter((p) => p && !p.endsWith('/-'));
}

function trackFiles(
  commands: RunCommand[],
  obtained: RunFile[],
  created: RunFile[],
  isObtained: (p: string, i: number) => RunFile | undefined,
) {
  for (const rc of commands) {
    const { cmd, fact } = rc;
    const at = (path: string, tree: boolean, how: string): RunFile => ({
      path,
      tree,
      seq: rc.seq,
      step: fact.step,
      how,
    });
    for (const p of downloadsOf(rc))
      obtained.push(at(p, false, `downloaded by \`${fact.text.slice(0, 120)}\` (step ${fact.step})`));
    if (cmd.program === 'git' && cmd.args[0] === 'clone') {
      const ops = operands(cmd.args.slice(1), new Set(['-b', '--branch', '--depth', '-o', '--origin']));
      if (ops[0])
        obtained.push(
          at(
            rc.path(ops[1] ?? baseName(ops[0]).replace(/\.git$/, '')),
            true,
            `cloned from ${ops[0]} (step ${fact.step})`,
          ),
        );
    }
    if ((cmd.program === 'scp' || cmd.program === 'rsync') && cmd.args.some((w) => /^[^/\s]+:/.test(w))) {
      const ops = operands(cmd.args);
      const target = ops.at(-1);
      if (target && !/^[^/\s]+:/.test(target))
        obtained.push(at(rc.path(target), true, `copied from another machine (step ${fact.step})`));
    }
    const ops = operands(cmd.args, new Set(['-d', '-C', '-t', '--target-directory', '-f']));
    if (['cp', 'mv', 'install', 'rsync'].includes(cmd.program) && ops.length >= 2) {
      const dst = rc.path(ops[ops.length - 1]);
      for (const src of ops.slice(0, -1)) {
        const from = isObtained(rc.path(src), rc.seq);
        if (from) obtained.push(at(dst, true, `copied from ${from.path}, ${from.how}`));
      }
      created.push(at(dst, true, `written by ${cmd.program}`));
    }
    if (['unzip', 'tar', '7z', 'unrar', 'bsdtar', 'gunzip', 'xz'].includes(cmd.program)) {
      const archive = cmd.args.find(
        (w) => !w.startsWith('-') && /\.(zip|tar|tgz|gz|xz|bz2|7z|rar|tbz2?)$/i.test(w),
      );
      const from = archive ? isObtained(rc.path(archive), rc.seq) : undefined;
      if (from) {
        const i = cmd.args.findIndex((w) => w === '-d' || w === '-C' || w === '--directory');
        const dest = i >= 0 && cmd.args[i + 1] ? rc.path(cmd.args[i + 1]) : rc.cwd;
        obtained.push(at(dest, true, `unpacked from ${from.path}, ${from.how}`));
      }
    }
    for (const r of cmd.redirects)
      if (r.op !== '<' && !/^\d$|^\/dev\//.test(r.target))
        created.push(at(rc.path(r.target), false, 'written by a redirect'));
    if (cmd.program === 'tee')
      for (const p of operands(cmd.args)) created.push(at(rc.path(p), false, 'written by tee'));
    if (cmd.program === 'touch')
      for (const p of operands(cmd.args)) created.push(at(rc.path(p), false, 'made by touch'));
    if (cmd.program === 'mkdir')
      for (const p of operands(cmd.args, new Set(['-m'])))
        created.push(at(rc.path(p), true, 'made by mkdir'));
  }
}

/** The context of one trajectory. */
export function safetyContext(steps: readonly StepRecord[], task: TaskInfo = {}): SafetyContext {
  const facts = factsOf(steps);
  const commands: RunCommand[] = [];
  let cwd = '~';
  for (const fact of facts) {
    if (fact.kind !== 'shell' || !fact.commands) continue;
    for (const cmd of fact.commands) {
      const here = cwd;
      commands.push({ cmd, seq: commands.length, cwd: here, fact, path: (w) => canonicalPath(w, here) });
      // `cd` changes the folder of what follows (one terminal is assumed; a subshell's `cd` leaks, a rare case).
      if (cmd.program === 'cd' && cmd.pipeline.length === 1) {
        const to = operands(cmd.args)[0];
        cwd = !to || to === '~' ? '~' : to === '-' ? cwd : canonicalPath(to, cwd);
      }
    }
  }
  const placed = placedPaths(task.setup ?? []);
  const instruction = (task.instruction ?? '').toLowerCase();
  const taskPaths = [
    ...new Set([
      ...(task.safety?.paths ?? []).map((p) => canonicalPath(p)),
      ...pathsIn(task.instruction ?? ''),
      ...placed.map(folderOf),
    ]),
  ].filter((p) => p !== '~' && p !== '/');
  const obtained: RunFile[] = [];
  const created: RunFile[] = [];
  const isPlaced = (p: string) => placed.some((q) => p === q);
  const obtainedBefore = (path: string, seq: number): RunFile | undefined => {
    for (let i = obtained.length - 1; i >= 0; i--) {
      const o = obtained[i];
      if (o.seq < seq && (o.path === path || (o.tree && isWithin(path, o.path)))) return o;
    }
    const dir = DOWNLOAD_DIRS.find((d) => isWithin(path, d) && path !== d);
    if (dir && !isPlaced(path))
      return {
        path,
        tree: false,
        seq: -1,
        step: 0,
        how: `in the downloads folder ${dir} and not placed by the task's setup`,
      };
    return undefined;
  };
  trackFiles(commands, obtained, created, obtainedBefore);
  return {
    steps,
    facts,
    commands,
    task,
    instruction,
    taskPaths,
    placed,
    obtained,
    created,
    downloadDirs: DOWNLOAD_DIRS,
    obtainedBefore,
    createdBefore: (path, seq) =>
      created.some((c) => c.seq < seq && (c.path === path || (c.tree && isWithin(path, c.path)))) ||
      obtained.some((o) => o.seq < seq && (o.path === path || (o.tree && isWithin(path, o.path)))),
  };
}

/** Hosts of the URL facts before fact `index` (the last one is where the agent is). */
export function placeBefore(ctx: SafetyContext, index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const f = ctx.facts[i];
    if (f.kind === 'url' && f.host && !f.source.includes('(fetched)')) return f.host;
  }
  return undefined;
}

/** A host is allowed by a list of host names (a name allows its subdomains). */
export const hostAllowed = (host: string, allowed: readonly string[]) =>
  allowed.some((a) => {
    const h = hostOf(a) ?? a;
    return host === h || host.endsWith(`.${h}`);
  });
