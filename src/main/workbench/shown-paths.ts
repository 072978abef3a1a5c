// What the engine tells a client names files relative to the served root, never by their host path: error
// messages and answers pass through here, so a remote browser learns nothing of the host's folders.
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { ApiHandlers, MethodName } from '../../shared/api';
import { ApiRequestError } from './dispatch';

/** Answers deeper than this are left as they are (the store's readers bound the depth of what they read). */
const MAX_WALK_DEPTH = 64;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rewrites `<root>/x` to `x` and `<root>` alone to `.`, for the root as given and as its real path. */
export function rootHider(root: string): { text(s: string): string; value<T>(v: T): T } {
  if (resolve(root) === sep) return { text: (s) => s, value: (v) => v }; // serving `/`: host paths are the relative ones
  const forms = new Set([resolve(root)]);
  try {
    forms.add(realpathSync(root));
  } catch {
    // a root that is not there yet: the lexical form only
  }
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  // The root followed by a separator (then the rest is the relative path), or the root at a word's end.
  const pattern = new RegExp(`(?:${alternatives})(?:${escapeRegExp(sep)}+|(?![\\w.-]))`, 'g');
  const text = (s: string): string =>
    s.length < 2 ? s : s.replace(pattern, (m) => (m.endsWith(sep) ? '' : '.'));
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v !== 'object' || v === null || depth > MAX_WALK_DEPTH) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, depth + 1);
    return out;
  };
  return { text, value: <T>(v: T) => walk(v, 0) as T };
}

/** The same handlers, with host paths below `root` made relative in their answers and in their errors. */
export function withRootHidden<H extends Partial<ApiHandlers>>(root: string, handlers: H): H {
  const hide = rootHider(root);
  const wrapped: Partial<Record<MethodName, (p: unknown, caller?: unknown) => Promise<unknown>>> = {};
  for (const [method, handler] of Object.entries(handlers) as [
    MethodName,
    (p: unknown, caller?: unknown) => Promise<unknown>,
  ][]) {
    wrapped[method] = async (params, caller) => {
      try {
        return hide.value(await handler(params, caller));
      } catch (e) {
        if (e instanceof ApiRequestError) throw new ApiRequestError(e.code, hide.text(e.message));
        if (e instanceof Error) e.message = hide.text(e.message);
        throw e;
      }
    };
  }
  return wrapped as H;
}
