// Finds the action in a model's reply: fenced code blocks (```python / ```json / ```), or one of the bare
// tokens WAIT / DONE / FAIL on a line of its own. The code itself is parsed (never run) by src/main/actions.
import type { ActionSpace } from '../../shared/spaces';

export type ControlToken = 'WAIT' | 'DONE' | 'FAIL';

/** One piece of the reply to perform, in order. `line` is where the block's code starts in the reply (1-based). */
export type ReplyPart =
  { kind: 'code'; code: string; line: number } | { kind: 'token'; token: ControlToken; line: number };

export type ReadReply = { ok: true; parts: ReplyPart[] } | { ok: false; message: string };

const tokenLine = /^[\s`*"'.]*(WAIT|DONE|FAIL)[\s`*"'.!]*$/;

function asToken(text: string): ControlToken | undefined {
  const m = tokenLine.exec(text.trim());
  return m ? (m[1] as ControlToken) : undefined;
}

/** Splits a reply into the code blocks and tokens it asks for. */
export function readReply(reply: string, actionSpace: ActionSpace): ReadReply {
  const text = reply.replace(/\r\n?/g, '\n');
  const fence = /```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?([\s\S]*?)```/g;
  const parts: ReplyPart[] = [];
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    const body = m[2];
    const bodyStart = m.index + m[0].indexOf(body, 3);
    const line = text.slice(0, bodyStart).split('\n').length;
    const token = asToken(body);
    if (token) parts.push({ kind: 'token', token, line });
    else if (body.trim() !== '') {
      // A block ending in a token line (`pyautogui.click(…)\nDONE`): the code, then the token.
      const lines = body.replace(/\s+$/, '').split('\n');
      const lastToken = lines.length > 1 ? asToken(lines[lines.length - 1]) : undefined;
      if (lastToken) {
        parts.push({ kind: 'code', code: lines.slice(0, -1).join('\n'), line });
        parts.push({ kind: 'token', token: lastToken, line: line + lines.length - 1 });
      } else parts.push({ kind: 'code', code: body.replace(/\s+$/, ''), line });
    }
  }
  if (parts.length) return { ok: true, parts };

  // No fenced block: a token on a line of its own (the last one wins), or bare code.
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const token = asToken(lines[i]);
    if (token) return { ok: true, parts: [{ kind: 'token', token, line: i + 1 }] };
  }
  const trimmed = text.trim();
  if (actionSpace === 'pyautogui') {
    const first = lines.findIndex((l) => l.trim() !== '');
    if (first >= 0 && /^(import\s+(pyautogui|time)\b|pyautogui\.|time\.sleep)/.test(lines[first].trim())) {
      return {
        ok: true,
        parts: [{ kind: 'code', code: lines.slice(first).join('\n').trim(), line: first + 1 }],
      };
    }
  } else if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    return {
      ok: true,
      parts: [{ kind: 'code', code: trimmed, line: lines.findIndex((l) => l.trim() !== '') + 1 }],
    };
  }
  const form =
    actionSpace === 'pyautogui'
      ? 'one ```python code block of pyautogui calls'
      : 'one ```json block holding an action dict';
  return {
    ok: false,
    message: `no action found in the reply: answer with ${form}, or with WAIT, DONE or FAIL on a line of its own`,
  };
}
