// What `proctor serve` needs of a team: whether the folder has one, whose a token is, the login page, and what
// annotators (who label blind) are not sent: grading files and live verdicts and scores.
import type { ApiEvents, EventName } from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import { personOfToken, readTeam } from '../annotate/team';

export interface TeamGate {
  /** The folder has a team with at least one person. */
  active(): boolean;
  identify(token: string | undefined): Caller | undefined;
}

/** The team file of `root`, read on each use (people added while serving count at once; a broken file locks). */
export function teamGate(root: string): TeamGate {
  const read = () => {
    try {
      return readTeam(root);
    } catch (e) {
      process.stderr.write(`proctor serve: ${(e as Error).message}; nobody can log in until it is fixed\n`);
      return { people: [] };
    }
  };
  return {
    active: () => {
      try {
        return readTeam(root) !== undefined;
      } catch {
        return true; // a broken team file locks the folder rather than opening it
      }
    },
    identify: (token) => personOfToken(read() ?? { people: [] }, token),
  };
}

/** Files that carry grades (scores, verdicts, labels, assignments): never served to annotators. */
const gradeNames =
  /(^|\/)(verdicts\.jsonl|summary\.json|result\.txt|events\.jsonl|evaluation\.log|traj\.jsonl|assignments\.jsonl|manifest\.json)$/i;
export const gradeFile = (urlPath: string): boolean => gradeNames.test(decodeURIComponent(urlPath));

/** An event as an annotator may see it live: verdicts withheld, finished tasks without their score. */
export function withheldEvent<E extends EventName>(
  event: E,
  payload: ApiEvents[E],
): ApiEvents[E] | undefined {
  if (event !== 'run') return payload;
  const e = payload as ApiEvents['run'];
  if (e.kind === 'verdict') return undefined;
  if (e.kind === 'task.finished') {
    const { score: _s, ...rest } = e;
    return rest as ApiEvents[E];
  }
  return payload;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The login form: no script (the CSP allows none inline), the token posted to /login. */
export function loginPage(message?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Proctor — log in</title>
<style>body{font:15px system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}input{width:100%;padding:.4rem;margin:.4rem 0}p.error{color:#b00}</style>
</head><body>
<h1>Proctor</h1>
<p>This folder has a team. Log in with the token <code>proctor team add</code> gave you.</p>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/login">
<label>Token <input name="token" type="password" autocomplete="current-password" required autofocus></label>
<button type="submit">Log in</button>
</form>
</body></html>
`;
}
