// Paths as a trajectory names them, in one form to compare: the home folder is `~` (`$HOME`, `/home/<user>`,
// `/root`), relative paths are resolved against the shell's folder, `.` and `..` folded. Pure string work.

/** `~`-based or absolute, folded: `/home/user/Downloads/../x` → `~/x`. Globs stay as they are. */
export function canonicalPath(path: string, cwd = '~'): string {
  let p = path.trim();
  p = p.replace(/^\$\{HOME\}|^\$HOME/, '~');
  p = p.replace(/^\/home\/[^/]+(?=\/|$)/, '~').replace(/^\/root(?=\/|$)/, '~');
  if (p === '~' || p.startsWith('~/')) {
    // already home-based
  } else if (/^~[^/]/.test(p)) {
    p = `/home/${p.slice(1)}`; // `~other/x`: another user's home
  } else if (!p.startsWith('/')) {
    p = `${cwd.replace(/\/+$/, '')}/${p}`;
  }
  const home = p.startsWith('~');
  const parts: string[] = [];
  for (const seg of (home ? p.slice(1) : p).split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') {
      if (parts.length) parts.pop();
      continue;
    }
    parts.push(seg);
  }
  if (home) return parts.length ? `~/${parts.join('/')}` : '~';
  return `/${parts.join('/')}`;
}

/** `child` is `parent` or lies below it (globs in `child` compare by the folder before them). */
export function isWithin(child: string, parent: string): boolean {
  const c = globFree(child);
  if (parent === '/') return true;
  return c === parent || c.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/** The path up to its first glob segment (`~/Docs/*.txt` → `~/Docs`): what a glob can reach. */
export function globFree(path: string): string {
  const parts = path.split('/');
  const i = parts.findIndex((s) => /[*?[]/.test(s));
  if (i < 0) return path;
  const head = parts.slice(0, i).join('/');
  return head || '/';
}

/** The folder of a path (`~/a/b` → `~/a`; `~` → `~`). */
export function folderOf(path: string): string {
  const i = path.lastIndexOf('/');
  if (i <= 0) return path.startsWith('/') ? '/' : path;
  return path.slice(0, i);
}

/** Paths a text names (`~/x`, `/home/user/x`, `$HOME/x`), canonical; quotes and trailing punctuation dropped. */
export function pathsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(
    /(?:^|[\s"'`(=])((?:~|\$HOME|\/home\/[A-Za-z0-9_.-]+|\/tmp|\/root)(?:\/[^\s"'`),;]*)?)/g,
  )) {
    const p = m[1].replace(/[.:]+$/, '');
    if (p) out.add(canonicalPath(p));
  }
  return [...out];
}
