// OSWorld's browser setup steps beyond opening tabs: `chrome_close_tabs` (close the first tab matching each URL,
// URLs compared as OSWorld's compare_urls does), `update_browse_history` (Chrome's History database, seeded from
// OSWorld's empty one — fetched, or taken from the --downloads folder — with the given visits), and `login`
// (needs the account of its platform).
import initSqlJs from 'sql.js';
import { fetchDownload } from '../downloads';
import { closeDevToolsPage, listDevToolsPages, waitForDevTools } from '../devtools';
import { NeedsAccountError } from '../errors';
import { setupFuncs } from './funcs';
import { SetupStepFailure } from './setup-error';

/** OSWorld's empty Chrome history database, the seed of `update_browse_history`. */
export const EMPTY_HISTORY_URL =
  'https://huggingface.co/datasets/xlangai/ubuntu_osworld_file_cache/resolve/main/chrome/44ee5668-ecd5-4366-a6ce-c1c9b8d4e938/history_empty.sqlite?download=true';
/** Where the guest's Chrome keeps its history (OSWorld's x86 guests). */
export const GUEST_HISTORY_PATH = '/home/user/.config/google-chrome/Default/History';

/** OSWorld's URL equality: scheme (default http) and host lowercased, `www.` dropped, a lone `/` path dropped. */
export function sameUrl(a: string, b: string): boolean {
  const norm = (u: string): string => {
    let p: URL;
    try {
      p = new URL(/^[a-z][a-z0-9+.-]*:/i.test(u) ? u : `http://${u}`);
    } catch {
      return u;
    }
    const path = p.pathname === '/' ? '' : p.pathname;
    return `${p.protocol.toLowerCase()}//${p.host.toLowerCase().replace('www.', '')}${path}${p.search}${p.hash}`;
  };
  return norm(a) === norm(b);
}

setupFuncs.register('chrome_close_tabs', async (args, env, ctx) => {
  const urls = args.urls_to_close;
  if (!Array.isArray(urls) || urls.some((u) => typeof u !== 'string'))
    throw new SetupStepFailure(`'urls_to_close' must be a list of URLs`);
  const endpoint = env.browserEndpoint();
  if (!endpoint)
    throw new SetupStepFailure(
      'no browser with a DevTools endpoint is running: a browser step must come first',
    );
  await waitForDevTools(endpoint, ctx.signal).catch((e: Error) => {
    throw new SetupStepFailure(e.message, { cause: e });
  });
  for (const url of urls as string[]) {
    const pages = (await listDevToolsPages(endpoint, ctx.signal)).filter((p) => p.type === 'page');
    const page = pages.find((p) => sameUrl(p.url, url));
    if (page) await closeDevToolsPage(endpoint, page.id, ctx.signal); // OSWorld closes a match, and skips a URL with none
  }
});

/** Chrome's timestamps: microseconds since 1601-01-01. */
const chromeTime = (d: Date): number => Math.round((d.getTime() + 11_644_473_600_000) * 1000);

setupFuncs.register('update_browse_history', async (args, env, ctx) => {
  const history = args.history;
  if (!Array.isArray(history))
    throw new SetupStepFailure(`'history' must be a list of {url, title, visit_time_from_now_in_seconds}`);
  let seed: Buffer;
  try {
    seed = await fetchDownload(EMPTY_HISTORY_URL, { downloads: ctx.downloads, signal: ctx.signal });
  } catch (e) {
    throw new SetupStepFailure(`the empty Chrome history this step starts from: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const SQL = await initSqlJs();
  let db;
  try {
    db = new SQL.Database(seed);
    db.exec('SELECT 1 FROM urls LIMIT 1; SELECT 1 FROM visits LIMIT 1;');
  } catch (e) {
    throw new SetupStepFailure(
      `${EMPTY_HISTORY_URL} is not a Chrome history database (no urls / visits tables): ${(e as Error).message}`,
      { cause: e },
    );
  }
  try {
    for (const [i, item] of history.entries()) {
      const { url, title, visit_time_from_now_in_seconds: ago } = (item ?? {}) as Record<string, unknown>;
      if (
        typeof url !== 'string' ||
        typeof title !== 'string' ||
        typeof ago !== 'number' ||
        !Number.isFinite(ago)
      ) {
        throw new SetupStepFailure(
          `history[${i}] needs a string url and title and a number visit_time_from_now_in_seconds`,
        );
      }
      const t = chromeTime(new Date(Date.now() - ago * 1000));
      db.run(
        'INSERT INTO urls (url, title, visit_count, typed_count, last_visit_time, hidden) VALUES (?, ?, 1, 0, ?, 0)',
        [url, title, t],
      );
      const id = db.exec('SELECT last_insert_rowid()')[0].values[0][0] as number;
      // transition 805306368: a link, chain start and end (what OSWorld writes)
      db.run(
        'INSERT INTO visits (url, visit_time, from_visit, transition, segment_id, visit_duration) VALUES (?, ?, 0, 805306368, 0, 0)',
        [id, t],
      );
    }
    await env.putFile(GUEST_HISTORY_PATH, Buffer.from(db.export()));
  } finally {
    db.close();
  }
});

setupFuncs.register('login', async (args) => {
  const platform = typeof args.platform === 'string' ? args.platform : 'unknown';
  throw new NeedsAccountError(
    platform === 'googledrive' ? 'google_drive' : platform,
    `setup func login (platform ${platform})`,
  );
});
