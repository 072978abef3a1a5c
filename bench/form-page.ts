// What the step benchmarks share: the form page Chromium shows (30 fields and buttons, so Set-of-Mark and the
// accessibility tree have work to do) and waiting for a URL to answer.
export const formPage = `<!doctype html><title>Bench page</title><body style="font:16px sans-serif">
<h1>Orders</h1><form>${Array.from({ length: 30 }, (_, i) => `<label>Field ${i} <input name="f${i}"></label><button type="button">Save ${i}</button><br>`).join('')}</form></body>`;

export async function waitForHttp(url: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}
