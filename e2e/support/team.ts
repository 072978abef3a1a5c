// A served workbench with a team of three (annotators ann and bob, lead lee) over a synthetic run of 3 tasks,
// people logged in by their token in their own browser context, raw API calls from their pages, and the run's
// report as `proctor report --json` prints it.
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { addTeamMember } from '../../src/main/annotate/team';
import { main } from '../../src/main/cli/main';
import { useWorkbench } from './serve';
import { writeSyntheticRun, type SyntheticRun } from './synthetic-run';

export type TeamMember = 'ann' | 'bob' | 'lee';

/** The workbench `name` with the synthetic run under results/ and the team's tokens; read both inside tests. */
export function useTeamWorkbench(name: string) {
  const team = { run: undefined as unknown as SyntheticRun, tokens: {} as Record<TeamMember, string> };
  const w = useWorkbench(name, async (root) => {
    team.run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 3, steps: 3 });
    team.tokens.ann = await addTeamMember(root, 'ann', 'annotator');
    team.tokens.bob = await addTeamMember(root, 'bob', 'annotator');
    team.tokens.lee = await addTeamMember(root, 'lee', 'lead');
  });
  return { w, team };
}

/** A person logged in with their token, in a browser context of their own. */
export async function loggedIn(
  browser: Browser,
  base: string,
  token: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  await page.goto(new URL('/', base).href);
  await expect.poll(() => page.url()).toMatch(/\/login$/);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.url()).not.toMatch(/\/login$/);
  return { context, page };
}

/** A raw API call from the page with its cookie (the caller is whoever is logged in), as a script could make it. */
export const callFromPage = (page: Page, method: string, params: unknown) =>
  page.evaluate(
    async ([m, p]) => {
      const r = await fetch('/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: m, params: p }),
      });
      return { status: r.status, body: await r.text() };
    },
    [method, params] as const,
  );

/** `proctor report <run> --json`'s first run. */
export async function reportJson(runDir: string): Promise<Record<string, unknown>> {
  const out: string[] = [];
  expect(await main(['report', runDir, '--json'], { out: (l) => out.push(l), err: () => undefined })).toBe(0);
  return JSON.parse(out.join('\n')).runs[0];
}
