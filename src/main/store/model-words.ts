// The model's own words beside a foreign trajectory: messages.json of tool-using agents (a list of
// {role, content: [{type: text | tool_use | tool_result | image …}]}) read into ModelTurns and given to the steps
// they produced. Text is shortened, images become a note; nothing in it is run.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelTurn, StepRecord } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { parseBoundedJson } from '../bounded-json';

export const MESSAGES_FILE = 'messages.json';
const MAX_MESSAGES_BYTES = 50 * 1024 * 1024;
const MAX_TEXT = 8000;

const clip = (s: string) =>
  s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}… (${s.length - MAX_TEXT} more characters)` : s;

/** Text of a content part list (or a plain string); images and other media become a note. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (part && typeof part === 'object') {
      const p = part as { type?: unknown; text?: unknown; content?: unknown };
      if (p.type === 'text' && typeof p.text === 'string') parts.push(p.text);
      else if (p.type === 'tool_result') {
        const inner = textOf(p.content);
        if (inner) parts.push(inner);
      } else if (p.type === 'image' || p.type === 'image_url' || p.type === 'input_image')
        parts.push('[image]');
    }
  }
  return parts.join('\n');
}

/** One message as a ModelTurn; a user message that only returns tool results is the tool's turn. */
function turnOf(message: unknown, index: number): ModelTurn | undefined {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const m = message as { role?: unknown; content?: unknown; tool_calls?: unknown };
  const role =
    m.role === 'assistant' || m.role === 'system' || m.role === 'tool'
      ? m.role
      : m.role === 'user'
        ? 'user'
        : undefined;
  if (!role) return undefined;
  const content = Array.isArray(m.content) ? m.content : [];
  const toolCalls = content
    .filter(
      (p): p is { type: string; name?: unknown; input?: unknown } =>
        !!p && typeof p === 'object' && (p as { type?: unknown }).type === 'tool_use',
    )
    .map((p) => ({ name: typeof p.name === 'string' ? p.name : 'tool', input: p.input }));
  // OpenAI-style calls: {tool_calls: [{function: {name, arguments}}]}
  if (Array.isArray(m.tool_calls))
    for (const c of m.tool_calls) {
      const f =
        c && typeof c === 'object'
          ? (c as { function?: { name?: unknown; arguments?: unknown } }).function
          : undefined;
      if (f && typeof f.name === 'string') toolCalls.push({ name: f.name, input: f.arguments });
    }
  const onlyResults =
    content.length > 0 &&
    content.every((p) => p && typeof p === 'object' && (p as { type?: unknown }).type === 'tool_result');
  const text = clip(textOf(m.content));
  const turn: ModelTurn = {
    role: role === 'user' && onlyResults ? 'tool' : role,
    source: `${MESSAGES_FILE}[${index}]`,
  };
  if (text) turn.text = text;
  if (toolCalls.length) turn.toolCalls = toolCalls;
  return turn;
}

export interface Conversation {
  turns: ModelTurn[];
  /** The first user message's text: in these folders the only place the task instruction is written. */
  instruction?: string;
}

/** messages.json of a task folder; undefined when there is none. Unreadable files become a Problem. */
export function readConversation(dir: string, problems: Problem[]): Conversation | undefined {
  const file = join(dir, MESSAGES_FILE);
  if (!existsSync(file)) return undefined;
  if (statSync(file).size > MAX_MESSAGES_BYTES) {
    problems.push({
      file,
      severity: 'warning',
      message: "messages.json is over 50 MB; the model's words are not shown (remove the images from it)",
    });
    return undefined;
  }
  let list: unknown;
  try {
    list = parseBoundedJson(readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push({
      file,
      line: 1,
      col: 1,
      severity: 'warning',
      message: `messages.json is not JSON (${(e as Error).message}); the model's words are not shown`,
    });
    return undefined;
  }
  const messages = Array.isArray(list)
    ? list
    : list && typeof list === 'object' && Array.isArray((list as { messages?: unknown }).messages)
      ? (list as { messages: unknown[] }).messages
      : undefined;
  if (!messages) {
    problems.push({
      file,
      pointer: '',
      severity: 'warning',
      message: "messages.json must be a list of {role, content} messages; the model's words are not shown",
    });
    return undefined;
  }
  const turns = messages.map(turnOf).filter((t): t is ModelTurn => t !== undefined);
  const firstUser = turns.find((t) => t.role === 'user' && t.text);
  return { turns, instruction: firstUser?.text };
}

/**
 * Gives each step the turns that produced it: the k-th assistant turn that made tool calls ↔ the k-th step (in
 * the harness's order), with the tool results that answered it. Assistant words between two such turns stay
 * with the earlier one; words after the last one (the agent's closing remark) go to the next step when the
 * trajectory has one (its DONE), else to the last. Without any tool call, the k-th assistant turn ↔ the k-th
 * step. Every entry of a step carries its step's turns.
 */
export function assignTurns(entries: StepRecord[], turns: ModelTurn[]): void {
  const steps = [...new Set(entries.map((e) => e.step))];
  if (!steps.length) return;
  const groups: ModelTurn[][] = [];
  let tail: ModelTurn[] = [];
  for (const t of turns) {
    if (t.role === 'assistant' && t.toolCalls?.length) {
      if (tail.length && groups.length) groups[groups.length - 1].push(...tail);
      tail = [];
      groups.push([t]);
    } else if (t.role === 'tool' && groups.length && !tail.length) groups[groups.length - 1].push(t);
    else if (t.role === 'assistant') tail.push(t);
  }
  if (!groups.length) groups.push(...tail.map((t) => [t]));
  else if (tail.length) {
    if (steps.length > groups.length) groups.push(tail);
    else groups[groups.length - 1].push(...tail);
  }
  const byStep = new Map<number, ModelTurn[]>();
  groups.forEach((g, k) => {
    const step = steps[Math.min(k, steps.length - 1)];
    byStep.set(step, [...(byStep.get(step) ?? []), ...g]);
  });
  for (const e of entries) {
    const words = byStep.get(e.step);
    if (words) e.model = [...words, ...(e.model ?? []).filter((m) => !words.some((w) => w.text === m.text))];
  }
}
