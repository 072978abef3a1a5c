// Reads a shell command line the way a POSIX shell would split it — words, quotes, `&&` `||` `;` `|`, redirects,
// `$(…)` / backticks / `<(…)` — to find what it ran, never to run it. Tolerant: an unbalanced quote ends at the end.

/** One simple command: its words (leading `sudo`, `env X=1`, `nohup`, … removed) and redirects. */
export interface SimpleCommand {
  /** The program as written (`./x`, `bash`, `/usr/bin/rm`). */
  name: string;
  /** The program's base name, lowercased (`rm`, `python3`). */
  program: string;
  args: string[];
  redirects: { op: string; target: string }[];
  /** Run with sudo / doas. */
  sudo: boolean;
  /** Index in its pipeline (0 = first); `pipeline` is the whole pipeline. */
  pipeIndex: number;
  pipeline: SimpleCommand[];
  /** Texts of `$(…)`, backticks and `<(…)` in its words, each parsed on its own too. */
  substitutions: { kind: '$(' | '<(' | '`'; text: string }[];
}

/** A token: a word (with the substitutions it held) or an operator. */
type Token = { word: string; subs: SimpleCommand['substitutions'] } | { op: string };

const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'nohup',
  'time',
  'exec',
  'command',
  'nice',
  'stdbuf',
  'timeout',
  'builtin',
  'xargs',
]);

/** The end of a `$(`-style group starting after its open paren, respecting quotes; the text's end if unbalanced. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else {
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return i;
      i++;
    }
  }
  return text.length;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  let subs: SimpleCommand['substitutions'] = [];
  const end = () => {
    if (inWord) tokens.push({ word, subs });
    word = '';
    inWord = false;
    subs = [];
  };
  const sub = (kind: '$(' | '<(' | '`', at: number): number => {
    if (kind === '`') {
      const close = text.indexOf('`', at);
      const stop = close < 0 ? text.length : close;
      subs.push({ kind, text: text.slice(at, stop) });
      word += '$(…)';
      inWord = true;
      return stop + 1;
    }
    const close = closingParen(text, at);
    subs.push({ kind, text: text.slice(at, close) });
    word += kind === '<(' ? '<(…)' : '$(…)';
    inWord = true;
    return close + 1;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const two = text.slice(i, i + 2);
    if (c === ' ' || c === '\t' || c === '\r') {
      end();
      i++;
    } else if (c === '\\' && text[i + 1] === '\n') i += 2;
    else if (c === '\\') {
      word += text[i + 1] ?? '';
      inWord = true;
      i += 2;
    } else if (c === '#' && !inWord) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const stop = close < 0 ? text.length : close;
      word += text.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) {
          word += '\\"$`\n'.includes(text[i + 1]) ? text[i + 1] : text.slice(i, i + 2);
          i += 2;
        } else if (text.startsWith('$(', i)) i = sub('$(', i + 2);
        else if (text[i] === '`') i = sub('`', i + 1);
        else word += text[i++];
      }
      i++;
    } else if (two === '$(') i = sub('$(', i + 2);
    else if (c === '`') i = sub('`', i + 1);
    else if (two === '<(' && !inWord) i = sub('<(', i + 2);
    else if (two === '&&' || two === '||' || two === ';;') {
      end();
      tokens.push({ op: two });
      i += 2;
    } else if (c === ';' || c === '\n' || c === '|' || c === '(' || c === ')' || (c === '{' && !inWord)) {
      end();
      tokens.push({ op: c === '\n' || c === '(' || c === ')' || c === '{' ? ';' : c });
      i++;
    } else if (c === '&' && text[i + 1] !== '>') {
      end();
      tokens.push({ op: ';' });
      i++;
    } else if (c === '>' || c === '<' || (c === '&' && text[i + 1] === '>')) {
      // `2>`, `>>`, `&>`, `>&2`: a redirect; a lone fd number before it belongs to it.
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else end();
      let op = c;
      i++;
      while (i < text.length && '>&|'.includes(text[i]) && op.length < 3) op += text[i++];
      tokens.push({ op: op.startsWith('<') ? '<' : op.includes('>>') ? '>>' : '>' });
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  end();
  return tokens;
}

const base = (name: string) => (name.split('/').pop() ?? name).toLowerCase();

/** Leading wrappers (`sudo -u x`, `env A=1`, `timeout 5`) and `VAR=value` words off; whether sudo was among them. */
function unwrap(words: string[]): { words: string[]; sudo: boolean } {
  let sudo = false;
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
    const w = words[i] === undefined ? '' : base(words[i]);
    if (!WRAPPERS.has(w) || i >= words.length - 1) break;
    if (w === 'sudo' || w === 'doas') sudo = true;
    i++;
    // The wrapper's own options (and their values: `sudo -u root`, `timeout -s 9 5`, `nice -n 5`).
    while (i < words.length && words[i].startsWith('-')) i += /^-[ugCnsk]$/.test(words[i]) ? 2 : 1;
    if (w === 'timeout' && /^\d/.test(words[i] ?? '')) i++;
  }
  return { words: words.slice(i), sudo };
}

/**
 * Every simple command of `text`, in order, including those inside `$(…)`, backticks and `<(…)` (after the
 * command holding them) and inside `bash -c '…'` / `sh -c` strings.
 */
export function parseShell(text: string, depth = 0): SimpleCommand[] {
  if (depth > 4 || text.length > 100_000) return [];
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let subs: SimpleCommand['substitutions'] = [];
  let redirects: SimpleCommand['redirects'] = [];
  let pipeline: SimpleCommand[] = [];
  let pendingRedirect: string | undefined;
  const inner: SimpleCommand[] = [];
  const finishCommand = () => {
    if (words.length) {
      const { words: w, sudo } = unwrap(words);
      if (w.length) {
        const cmd: SimpleCommand = {
          name: w[0],
          program: base(w[0]),
          args: w.slice(1),
          redirects,
          sudo,
          pipeIndex: pipeline.length,
          pipeline,
          substitutions: subs,
        };
        pipeline.push(cmd);
        out.push(cmd);
        for (const s of subs) inner.push(...parseShell(s.text, depth + 1));
        const dashC = w.indexOf('-c');
        if (SHELLS.has(cmd.program) && dashC > 0 && w[dashC + 1] && !w[dashC + 1].includes('$(…)'))
          inner.push(...parseShell(w[dashC + 1], depth + 1));
      }
    }
    words = [];
    subs = [];
    redirects = [];
  };
  const flushInner = () => {
    out.push(...inner.splice(0));
  };
  for (const t of tokenize(text)) {
    if ('word' in t) {
      if (pendingRedirect) {
        redirects.push({ op: pendingRedirect, target: t.word });
        pendingRedirect = undefined;
      } else {
        words.push(t.word);
        subs.push(...t.subs);
      }
      continue;
    }
    if (t.op === '>' || t.op === '>>' || t.op === '<') {
      pendingRedirect = t.op;
      continue;
    }
    finishCommand();
    if (t.op !== '|') {
      pipeline = [];
      flushInner();
    }
  }
  finishCommand();
  flushInner();
  return out;
}

/** Shells and interpreters: what a command runs as code when given a file or piped text. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh']);
export const INTERPRETERS = new Set([
  ...SHELLS,
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'source',
  '.',
  'osascript',
  'pwsh',
  'powershell',
]);
/** Programs that fetch from the network. */
export const FETCHERS = new Set([
  'curl',
  'wget',
  'fetch',
  'http',
  'aria2c',
  'lwp-download',
  'iwr',
  'invoke-webrequest',
]);

/** True for `python3.11`, `python3` and the like as well as the names in INTERPRETERS. */
export const isInterpreter = (program: string) =>
  INTERPRETERS.has(program) || /^python\d(\.\d+)?$/.test(program);

/** The first argument that is no option (`-x`, `--x`), skipping the values of the given options. */
export function firstOperand(args: string[], withValue: ReadonlySet<string> = new Set()): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return args[i + 1];
    if (withValue.has(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-') || a === '-') return a;
  }
  return undefined;
}

/** Operands of a command (arguments that are no options). */
export function operands(args: string[], withValue: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (rest) out.push(a);
    else if (a === '--') rest = true;
    else if (withValue.has(a)) i++;
    else if (!a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

/** Short flags set on a command (`-rf` → r, f; `--recursive` → recursive). */
export function flagsOf(args: string[]): Set<string> {
  const flags = new Set<string>();
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('--')) flags.add(a.slice(2).split('=')[0]);
    else if (a.startsWith('-') && a.length > 1) for (const ch of a.slice(1)) flags.add(ch);
  }
  return flags;
}
