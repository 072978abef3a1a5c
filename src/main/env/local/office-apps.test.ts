// GUI LibreOffice in a real sandbox session, as a benchmark task meets it: `open` of a workbook shows Calc's
// window under the title tasks name, typing and Ctrl+S write the file with no dialog in between, a killed
// session reopens with no recovery dialog, and Writer / Impress documents open under their titles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createLocalEnvironment, type LocalEnvironment } from './local-environment';
import { OFFICE_PROFILE_DIR, OFFICE_PROFILE_FILE } from './office-profile';
import { officeWindowTitle, waitForWindowTitle } from './openers';
import {
  cellValue,
  convertInSandbox,
  flatPresentation,
  flatText,
  killWindowOwner,
  officeGuiMissingHere,
  titlesSeenFor,
  workbookBytes,
} from './testing/office-docs';
import { poll } from './testing/poll';

const why = officeGuiMissingHere;
const BOOK = '/home/user/Budget.xlsx';
const TITLE = 'Budget.xlsx - LibreOffice Calc';

describe.skipIf(!!why)(`LibreOffice's windows in the sandbox ${why}`, () => {
  let env: LocalEnvironment;

  beforeAll(async () => {
    env = await createLocalEnvironment({ width: 1280, height: 800 });
  }, 60_000);

  afterAll(async () => {
    await env?.close();
  });

  it('finds the prepared profile where LibreOffice reads it in the sandbox home', () => {
    const xcu = readFileSync(
      env.home.toHost(`/home/user/${OFFICE_PROFILE_DIR}/${OFFICE_PROFILE_FILE}`),
      'utf8',
    );
    expect(xcu).toContain(
      '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>',
    );
    expect(xcu).toContain('<prop oor:name="WarnAlienFormat" oor:op="fuse"><value>false</value>');
  });

  it(`opens a workbook in Calc as '${TITLE}', takes a typed value and saves it with Ctrl+S, with no dialog`, async () => {
    await env.putFile(
      BOOK,
      await workbookBytes([
        ['Item', 'Amount'],
        ['Rent', 1200],
        ['Food', 300],
      ]),
    );
    expect(officeWindowTitle(BOOK)).toBe(TITLE);
    await env.open(BOOK);
    await waitForWindowTitle(env, TITLE, { timeoutMs: 60_000 });
    // A fresh profile shows "Tip of the Day" about a second after the window: watch for any such dialog.
    expect(await titlesSeenFor(env, 3000)).toEqual([TITLE]);

    await env.perform([
      { type: 'hotkey', keys: ['ctrl', 'home'] },
      { type: 'press', keys: ['right', 'right', 'down'] },
      { type: 'write', text: 'Proctor 42' },
      { type: 'press', keys: ['enter'] },
      { type: 'hotkey', keys: ['ctrl', 's'] },
    ]);
    const saved = await poll('C2 of the saved workbook to hold the typed value', 20_000, async () => {
      const bytes = await env.getFile(BOOK);
      const v = bytes ? await cellValue(bytes, 'C2').catch(() => undefined) : undefined;
      return v === 'Proctor 42' ? v : undefined;
    });
    expect(saved).toBe('Proctor 42');
    expect(await cellValue((await env.getFile(BOOK))!, 'B2')).toBe(1200); // the rest is kept
    // No "Keep current format" question, no other window: still the one title, and the file stays xlsx.
    expect(await titlesSeenFor(env, 1500)).toEqual([TITLE]);
    expect((await env.getFile(BOOK))!.subarray(0, 2).toString()).toBe('PK');
  }, 120_000);

  it('reopens the workbook after LibreOffice was killed with no recovery or lock dialog', async () => {
    await env.perform([
      { type: 'write', text: 'not saved' },
      { type: 'press', keys: ['enter'] },
    ]);
    await killWindowOwner(env, TITLE); // with an unsaved edit, as a crashed or timed-out session leaves it
    await env.open(BOOK);
    await waitForWindowTitle(env, TITLE, { timeoutMs: 60_000 });
    expect(await titlesSeenFor(env, 4000)).toEqual([TITLE]);
    expect(await cellValue((await env.getFile(BOOK))!, 'C2')).toBe('Proctor 42');
    await killWindowOwner(env, TITLE);
  }, 120_000);

  it('opens a Writer document and an Impress presentation (converted headless in the sandbox) under their titles', async () => {
    await env.putFile('/tmp/src/Report.fodt', Buffer.from(flatText(['Quarterly report', 'Sales grew.'])));
    await env.putFile('/tmp/src/Deck.fodp', Buffer.from(flatPresentation('Roadmap 2025')));
    const docx = await convertInSandbox(env, '/tmp/src/Report.fodt', 'docx:MS Word 2007 XML', '/home/user');
    const pptx = await convertInSandbox(
      env,
      '/tmp/src/Deck.fodp',
      'pptx:Impress MS PowerPoint 2007 XML',
      '/home/user',
    );
    expect([docx, pptx]).toEqual(['/home/user/Report.docx', '/home/user/Deck.pptx']);
    for (const [file, title] of [
      [docx, 'Report.docx - LibreOffice Writer'],
      [pptx, 'Deck.pptx - LibreOffice Impress'],
    ]) {
      expect(officeWindowTitle(file)).toBe(title);
      await env.open(file);
      await waitForWindowTitle(env, title, { timeoutMs: 60_000 });
      expect(await titlesSeenFor(env, 2000)).toEqual([title]);
      await killWindowOwner(env, title);
    }
  }, 180_000);
});
