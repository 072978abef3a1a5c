// "The terminal's text" as OSWorld's server reads it (GET /terminal): in an application's frame that has the
// `active` state, the one `terminal` element with the `focused` state, its text with trailing whitespace cut;
// nothing unless exactly one is found. One walk for the guest server's /terminal and the vm_terminal_output getter
// on environments without that endpoint, so a local and a remote environment answer alike.
import type { AccessibilityNode } from '../env/environment';

function collect(
  nodes: AccessibilityNode[],
  ok: (n: AccessibilityNode) => boolean,
  out: AccessibilityNode[] = [],
): AccessibilityNode[] {
  for (const n of nodes) {
    if (ok(n)) out.push(n);
    collect(n.children ?? [], ok, out);
  }
  return out;
}

/**
 * The focused terminal's text in the active frame (Python's rstrip applied), or undefined when no terminal or more
 * than one qualifies. Departure from OSWorld: any application's terminal counts, not only `gnome-terminal-server`'s.
 */
export function focusedTerminalText(nodes: AccessibilityNode[]): string | undefined {
  const apps = collect(nodes, (n) => n.role === 'application');
  const frames = apps.flatMap((a) =>
    (a.children ?? []).filter((f) => f.role === 'frame' && f.states.includes('active')),
  );
  const terminals = frames.flatMap((f) =>
    collect(f.children ?? [], (n) => n.role === 'terminal' && n.states.includes('focused')),
  );
  return terminals.length === 1 ? (terminals[0].text ?? '').replace(/\s+$/u, '') : undefined;
}
