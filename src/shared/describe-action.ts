// One line per typed action, for people (the UI, the judge's trajectory text, the CLI, logs).
import type { Action } from './run';

function keyName(k: string): string {
  const names: Record<string, string> = { ' ': 'space', '\n': 'enter', '\t': 'tab' };
  return names[k] ?? k;
}

function quote(text: string, max = 60): string {
  const shown = text.length > max ? text.slice(0, max) + '…' : text;
  return JSON.stringify(shown).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

const at = (a: { x?: number; y?: number }): string =>
  a.x !== undefined && a.y !== undefined ? ` (${a.x}, ${a.y})` : ' at the pointer';

/** One line for people, e.g. `click (100, 200)`, `type "hello"`, `ctrl+c`. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'click': {
      const clicks = action.clicks ?? 1;
      const kind = clicks === 2 ? 'double ' : clicks === 3 ? 'triple ' : '';
      const button = action.button && action.button !== 'left' ? `${action.button} ` : '';
      const times = clicks > 3 ? ` ×${clicks}` : '';
      return `${button}${kind}click${at(action)}${times}`;
    }
    case 'moveTo':
      return `move to (${action.x}, ${action.y})`;
    case 'moveRel':
      return `move by (${action.dx}, ${action.dy})`;
    case 'dragTo':
      return `${action.button && action.button !== 'left' ? action.button + ' ' : ''}drag to (${action.x}, ${action.y})`;
    case 'dragRel':
      return `${action.button && action.button !== 'left' ? action.button + ' ' : ''}drag by (${action.dx}, ${action.dy})`;
    case 'mouseDown':
      return `press ${action.button ?? 'left'} button${at(action)}`;
    case 'mouseUp':
      return `release ${action.button ?? 'left'} button${at(action)}`;
    case 'scroll': {
      const parts: string[] = [];
      if (action.dy !== 0 || action.dx === 0)
        parts.push(`${action.dy >= 0 ? 'up' : 'down'} ${Math.abs(action.dy)}`);
      if (action.dx !== 0) parts.push(`${action.dx > 0 ? 'right' : 'left'} ${Math.abs(action.dx)}`);
      return `scroll ${parts.join(', ')}${action.x !== undefined ? at(action) : ''}`;
    }
    case 'write':
      return `type ${quote(action.text)}`;
    case 'press': {
      const keys = action.keys.map(keyName).join(', ');
      return `press ${keys}${action.presses && action.presses !== 1 ? ` ×${action.presses}` : ''}`;
    }
    case 'hotkey':
      return action.keys.map(keyName).join('+');
    case 'keyDown':
      return `hold ${keyName(action.key)}`;
    case 'keyUp':
      return `release ${keyName(action.key)}`;
    case 'sleep':
      return `sleep ${action.seconds} s`;
    case 'WAIT':
      return 'WAIT';
    case 'DONE':
      return 'DONE';
    case 'FAIL':
      return 'FAIL';
  }
}
