// The usage text of a command, generated from its option table: one line per option (`--name VALUE  help`),
// long help wrapped under its column, `(default …)` and `[env VAR]` from the declaration.
import type { OptionSpec, OptionTable } from './table';

const WIDTH = 118;
const COLUMN = 24;

/** `--name VALUE`, `--name[=VALUE]` or `--name` as the help shows it. */
export function optionSignature(name: string, spec: OptionSpec): string {
  const flag = spec.short ? `-${spec.short}, --${name}` : `--${name}`;
  if (spec.kind === 'boolean') return flag;
  if (spec.kind === 'optional-value') return `${flag}[=${spec.value ?? 'VALUE'}]`;
  return `${flag} ${spec.value ?? 'VALUE'}`;
}

function shownDefault(spec: OptionSpec): string | undefined {
  if (spec.default === undefined || spec.default === false || /\bdefault\b/.test(spec.help)) return undefined;
  const d = spec.default as unknown;
  if (Array.isArray(d)) return d.length ? d.join(', ') : undefined;
  if (typeof d === 'object' && d !== null) return undefined;
  return String(d as string | number | boolean);
}

/** Words of `text` in lines of at most `width` characters (a word longer than that stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    const indent = /^ */.exec(para)![0];
    let line = indent;
    for (const word of para.slice(indent.length).split(' ')) {
      if (line.trim() && line.length + 1 + word.length > width) {
        lines.push(line);
        line = indent + word;
      } else line = line.trim() ? `${line} ${word}` : indent + word;
    }
    lines.push(line);
  }
  return lines;
}

/** The option lines of a table, each group under its heading. */
export function optionLines(table: OptionTable): string[] {
  const out: string[] = [];
  for (const [name, spec] of Object.entries(table)) {
    if (spec.hidden) continue;
    if (spec.group) out.push(spec.group);
    const sig = optionSignature(name, spec);
    const d = shownDefault(spec);
    const text = `${spec.help}${d !== undefined ? ` (default ${d})` : ''}${spec.repeatable && !/repeat/.test(spec.help) ? ' (repeatable)' : ''}${spec.env ? ` [env ${spec.env}]` : ''}`;
    const body = wrap(text, WIDTH - COLUMN);
    const head = `  ${sig}`;
    if (head.length + 2 > COLUMN) {
      // a long signature keeps its line; the text starts beside it
      out.push(`${head}  ${body[0]}`);
      for (const l of body.slice(1)) out.push(' '.repeat(COLUMN) + l);
      continue;
    }
    out.push(head.padEnd(COLUMN) + body[0]);
    for (const l of body.slice(1)) out.push(' '.repeat(COLUMN) + l);
  }
  return out;
}

/** A command's usage: `head` (synopsis and description), its options from the table, then `tail`. */
export function usageText(head: string, table: OptionTable, tail?: string): string {
  return [head.trimEnd(), '', ...optionLines(table), ...(tail ? ['', tail.trim()] : [])].join('\n');
}
