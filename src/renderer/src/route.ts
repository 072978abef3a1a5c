// Hash routes, so every view and step has a deep link: #/tasks?folder=…&task=…, #/runs, #/runs/<id>?task=…&step=N
import { useEffect, useState } from 'react';

export interface Route {
  view: string;
  rest: string[];
  query: URLSearchParams;
}

/** A malformed link shows its raw text rather than a blank page. */
function decodeSafely(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function parseRoute(hash: string): Route {
  const [path, q = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeSafely);
  let query: URLSearchParams;
  try {
    query = new URLSearchParams(q);
  } catch {
    query = new URLSearchParams();
  }
  // No view in the link: the app picks the first screen (runs when the served folder holds any, else tasks).
  return { view: parts[0] ?? '', rest: parts.slice(1), query };
}

export function routeHref(
  view: string,
  rest: string[] = [],
  query: Record<string, string | undefined> = {},
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  const qs = q.toString();
  return `#/${[view, ...rest].map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`;
}

export function navigate(
  view: string,
  rest: string[] = [],
  query: Record<string, string | undefined> = {},
  replace = false,
): void {
  const href = routeHref(view, rest, query);
  if (replace) history.replaceState(null, '', href);
  else location.hash = href.slice(1);
  if (replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
