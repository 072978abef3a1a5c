// What a trajectory did, as facts the detectors read: shell commands (an agent's `BASH …` tool action, a line typed
// into a terminal and entered, `os.system(…)` in pyautogui code), typed text, URLs visited or fetched, clicks on
// named elements, tool calls. One pass over the steps, in order; each fact keeps its step (and trajectory line).
import type { Action, StepRecord } from '../../shared/run';
import { parseShell, type SimpleCommand } from './shell';

export type FactKind = 'shell' | 'typed' | 'url' | 'click' | 'tool';

export interface Fact {
  /** Position in the run's facts (detectors compare order with it). */
  index: number;
  step: number;
  line?: number;
  kind: FactKind;
  text: string;
  /** Where it came from: `shell tool action`, `typed line`, `python code`, `address bar`, … */
  source: string;
  /** Shell facts: the commands of the line. */
  commands?: SimpleCommand[];
  /** URL facts: the host (lowercase) and whether the URL was fetched by a command (vs. opened for viewing). */
  host?: string;
  /** Tool facts: the tool's name. */
  tool?: string;
}

const MAX_TEXT = 20_000;
const clip = (s: string) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s);

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'`<>)\]}]+/gi;
/** A typed line that is an address: `https://x`, `example.com/a`, `127.0.0.1:8000/x`, `localhost:3000`. */
const ADDRESS =
  /^(?:https?:\/\/)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/** The host of a URL or address (lowercase, no port); undefined when none. */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
    return u.hostname.toLowerCase().replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

/** URLs in a text, in order. */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(/[.,;:]+$/, ''));
}

/** String literals passed to `os.system(…)`, `subprocess.*(…)`, `os.popen(…)` in Python code (list forms joined). */
function pythonShellCommands(code: string): string[] {
  const out: string[] = [];
  const str = /(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/g;
  for (const m of code.matchAll(
    /\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput))\s*\(\s*(\[[^\]]*\]|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g,
  )) {
    const arg = m[1];
    const parts = [...arg.matchAll(str)].map((s) => (s[1] ?? s[2]).replace(/\\(.)/g, '$1'));
    if (parts.length) out.push(arg.startsWith('[') ? parts.join(' ') : parts[0]);
  }
  return out;
}

/** `webbrowser.open('…')` in Python code. */
function pythonOpenedUrls(code: string): string[] {
  return [...code.matchAll(/\bwebbrowser\.open(?:_new(?:_tab)?)?\s*\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

const isEnter = (a: Action) =>
  (a.type === 'press' && a.keys.some((k) => k === 'enter' || k === 'return')) ||
  (a.type === 'hotkey' && a.keys.length === 1 && (a.keys[0] === 'enter' || a.keys[0] === 'return'));

/** The label of the Set-of-Mark box a click landed in, when the step has marks. */
function clickedLabel(step: StepRecord, a: Action): string | undefined {
  if (a.type !== 'click' || a.x === undefined || a.y === undefined || !step.marks) return undefined;
  const x = a.x;
  const y = a.y;
  const hits = step.marks.filter((m) => m.label && x >= m.x && x <= m.x + m.w && y >= m.y && y <= m.y + m.h);
  hits.sort((p, q) => p.w * p.h - q.w * q.h); // the innermost element
  return hits[0]?.label;
}

/** Every fact of a trajectory, in step order. Never throws on odd entries: what cannot be read is passed over. */
export function factsOf(steps: readonly StepRecord[]): Fact[] {
  const facts: Fact[] = [];
  const add = (f: Omit<Fact, 'index'>) => {
    if (!f.text) return;
    facts.push({ ...f, text: clip(f.text), index: facts.length });
    if (f.kind === 'shell')
      for (const u of urlsIn(f.text)) addUrl(f.step, f.line, u, `${f.source} (fetched)`);
  };
  const addUrl = (step: number, line: number | undefined, url: string, source: string) => {
    const host = hostOf(url);
    facts.push({ index: facts.length, step, line, kind: 'url', text: clip(url), source, host });
  };
  // Text typed since the last Enter (or focus change): a line a terminal would run, or an address bar's URL.
  let typed: { text: string; step: number; line?: number } | undefined;
  const enterLine = (step: number, line?: number) => {
    if (!typed) return;
    const text = typed.text.trim();
    typed = undefined;
    if (!text) return;
    if (ADDRESS.test(text)) addUrl(step, line, text, 'typed address');
    else add({ step, line, kind: 'shell', text, source: 'typed line', commands: parseShell(text) });
  };
  for (const s of steps) {
    if (!s || typeof s.step !== 'number') continue;
    const step = s.step;
    const line = s.line;
    if (s.toolAction && typeof s.toolAction.text === 'string') {
      const t = s.toolAction;
      if (t.kind === 'shell')
        add({
          step,
          line,
          kind: 'shell',
          text: t.text,
          source: `${t.name ?? 'shell'} tool action`,
          commands: parseShell(t.text),
        });
      else {
        add({ step, line, kind: 'tool', text: t.text, source: 'tool action', tool: t.name });
        if (t.name && /^(goto|navigate|open_?url|browse|visit|open)$/i.test(t.name))
          for (const u of urlsIn(t.text).concat(ADDRESS.test(t.text.trim()) ? [t.text.trim()] : []))
            addUrl(step, line, u, `${t.name} tool action`);
      }
    }
    if (typeof s.rawAction === 'string') {
      for (const cmd of pythonShellCommands(s.rawAction))
        add({ step, line, kind: 'shell', text: cmd, source: 'python code', commands: parseShell(cmd) });
      for (const u of pythonOpenedUrls(s.rawAction)) addUrl(step, line, u, 'python webbrowser.open');
    }
    if (s.actionText) add({ step, line, kind: 'click', text: s.actionText, source: 'control action' });
    for (const a of Array.isArray(s.actions) ? s.actions : []) {
      if (!a || typeof a !== 'object') continue;
      if (a.type === 'write' && typeof a.text === 'string') {
        add({ step, line, kind: 'typed', text: a.text, source: 'typed text' });
        const parts = a.text.split(/\r?\n/);
        parts.forEach((part, i) => {
          typed = { text: (typed?.text ?? '') + part, step: typed?.step ?? step, line: typed?.line ?? line };
          if (i < parts.length - 1) enterLine(step, line);
        });
      } else if (isEnter(a)) enterLine(step, line);
      else if (a.type === 'click') {
        typed = undefined;
        const label = clickedLabel(s, a);
        if (label) add({ step, line, kind: 'click', text: label, source: 'click on a marked element' });
      } else if (a.type === 'hotkey' && a.keys.includes('ctrl') && a.keys.includes('c')) typed = undefined;
    }
  }
  return facts;
}
