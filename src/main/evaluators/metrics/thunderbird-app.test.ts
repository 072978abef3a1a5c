// The thunderbird-family metrics on a profile Debian's Thunderbird wrote itself (driven over Marionette, as its
// Account Settings, Message Filters and Add-ons dialogs would: testing/thunderbird-profile.ts), fetched through the
// vm_file getter from the sandbox home as OSWorld's Thunderbird tasks do. Snapshots of a file taken between steps
// (a disabled filter, prefs before the change) are Thunderbird's own writes too.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { poll } from '../../env/local/testing/poll';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getters, metricFamilyOf } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { runMetric } from '../testing/fixtures';
import { hasThunderbird, startThunderbird, type ThunderbirdSession } from '../testing/thunderbird-profile';

const profileName = 'proctor.default-release';
const guestProfile = `/home/user/.thunderbird/${profileName}`;
const localFolders = `${guestProfile}/Mail/Local Folders`;
/** The signature: several lines, quotes, a backslash and non-ASCII text (prefs.js escapes some of them). */
const signature = '<div>Anonym "Anon" Müller\\Team ✓</div>\n<div>XYZ Lab — Gebäude 5</div>\r\n';

/** Statements run in Thunderbird's chrome context: the local folders account, identity id1, a folder. */
const setupAccount = `
try { MailServices.accounts.localFoldersServer; } catch { MailServices.accounts.createLocalMailAccount(); }
const server = MailServices.accounts.localFoldersServer;
const identity = MailServices.accounts.createIdentity();
identity.fullName = 'Ann Lee';
identity.email = 'ann@example.org';
MailServices.accounts.findAccountForServer(server).addIdentity(identity);
server.rootFolder.createSubfolder('Promotions', null);
return identity.key;`;

/** Thunderbird writes its prefs, in prefs.js's format, to another file (a blocking write; saving prefs.js itself
 * is done off the main thread). */
const savePrefsTo = `
const file = Cc['@mozilla.org/file/local;1'].createInstance(Ci.nsIFile);
file.initWithPath(arguments[0]);
Services.prefs.savePrefFile(file);`;

/** Creates or changes the filter "Promotions" (subject contains `word` → move to Promotions) and saves the list,
 * as the Message Filters dialog does on OK. */
const saveFilter = `
const [word, enabled] = arguments;
const server = MailServices.accounts.localFoldersServer;
const list = server.getFilterList(null);
for (let i = list.filterCount - 1; i >= 0; i--) if (list.getFilterAt(i).filterName === 'Promotions') list.removeFilterAt(i);
const filter = list.createFilter('Promotions');
filter.enabled = enabled;
const term = filter.createTerm();
term.attrib = Ci.nsMsgSearchAttrib.Subject;
term.op = Ci.nsMsgSearchOp.Contains;
const value = term.value;
value.attrib = term.attrib;
value.str = word;
term.value = value;
term.booleanAnd = true;
filter.appendTerm(term);
const action = filter.createAction();
action.type = Ci.nsMsgFilterAction.MoveToFolder;
action.targetFolderUri = server.rootFolder.getChildNamed('Promotions').URI;
filter.appendAction(action);
list.insertFilterAt(0, filter);
list.saveToDefaultFile();`;

/** A second filter whose name and condition value need quoting: OR terms, a quote and a parenthesis. */
const saveQuotedFilter = `
const list = MailServices.accounts.localFoldersServer.getFilterList(null);
const filter = list.createFilter('Say "hi" \\\\ é');
filter.enabled = false;
for (const [attrib, op, str] of [[Ci.nsMsgSearchAttrib.Subject, Ci.nsMsgSearchOp.DoesntContain, 'say "hi" (now)'], [Ci.nsMsgSearchAttrib.Sender, Ci.nsMsgSearchOp.Is, 'ä@example.org']]) {
  const term = filter.createTerm();
  term.attrib = attrib;
  term.op = op;
  const value = term.value;
  value.attrib = attrib;
  value.str = str;
  term.value = value;
  term.booleanAnd = false;
  filter.appendTerm(term);
}
const action = filter.createAction();
action.type = Ci.nsMsgFilterAction.Delete;
filter.appendAction(action);
list.insertFilterAt(list.filterCount, filter);
list.saveToDefaultFile();`;

/** Account Settings (signature, "automatically quote the original message" off) and the dark theme enabled in
 * the Add-ons Manager. */
const changeSettings = `
const [key, sig] = arguments;
const identity = MailServices.accounts.getIdentity(key);
identity.htmlSigText = sig;
identity.autoQuote = false;
const { AddonManager } = ChromeUtils.importESModule('resource://gre/modules/AddonManager.sys.mjs');
await (await AddonManager.getAddonByID('thunderbird-compact-dark@mozilla.org')).enable();`;

/** Copies .eml files into a new local folder (as dropping them on the folder, or saving a draft, does), then
 * deletes the last one when asked. */
const fillFolder = `
const [name, files, deleteLast] = arguments;
const root = MailServices.accounts.localFoldersServer.rootFolder;
root.createSubfolder(name, null);
const folder = root.getChildNamed(name);
for (const path of files) {
  const file = Cc['@mozilla.org/file/local;1'].createInstance(Ci.nsIFile);
  file.initWithPath(path);
  await new Promise((resolve, reject) => MailServices.copy.copyFileMessage(file, folder, null, false, 0, '', {
    QueryInterface: ChromeUtils.generateQI(['nsIMsgCopyServiceListener']),
    onStartCopy() {}, onProgress() {}, setMessageKey() {}, getMessageId() { return ''; },
    onStopCopy(status) { status ? reject(new Error('copying ' + path + ' failed: ' + status)) : resolve(); },
  }, null));
}
const headers = [...folder.messages];
if (deleteLast) folder.deleteMessages([headers[headers.length - 1]], null, true, false, null, false);
return headers.length;`;

/** Marks a folder's first message unread (Thunderbird rewrites its X-Mozilla-Status in place). */
const markFirstUnread = `
const folder = MailServices.accounts.localFoldersServer.rootFolder.getChildNamed(arguments[0]);
folder.markMessagesRead([[...folder.messages][0]], false);`;

/** Tags every message of a folder Important (Thunderbird rewrites the padded X-Mozilla-Keys line in place). */
const tagAll = `
const folder = MailServices.accounts.localFoldersServer.rootFolder.getChildNamed(arguments[0]);
folder.addKeywordsToMessages([...folder.messages], '$label1');`;

/** A message as a download would hold it (CRLF lines); `mimeFirst` puts the MIME-Version header first. */
function eml(n: number, subject: string, body: string, charset = 'UTF-8', mimeFirst = false): string {
  const headers = [
    `From: Shop <shop@example.org>`,
    'To: ann@example.org',
    `Subject: ${subject}`,
    `Date: Mon, 01 Jan 2024 1${n}:00:00 +0000`,
    `Message-ID: <m${n}@example.org>`,
    `Content-Type: text/plain; charset=${charset}`,
  ];
  headers.splice(mimeFirst ? 0 : 5, 0, 'MIME-Version: 1.0');
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
}

describe.skipIf(!hasThunderbird)(
  `thunderbird metrics on a profile Thunderbird wrote${hasThunderbird ? '' : ' (skipped: thunderbird not installed)'}`,
  () => {
    let env: ShellEnvironment;
    let tb: ThunderbirdSession | undefined;
    let n = 0;
    const ctx = (): GradingContext => ({
      env,
      task: { dir: env.home.root, file: join(env.home.root, 't.json') } as Task,
      cacheDir: join(env.home.root, '.cache', `c${++n}`),
    });
    const vmFile = async (path: string) =>
      (await getters.require('vm_file')(
        { type: 'vm_file', path, dest: path.split('/').pop() },
        ctx(),
      )) as string;
    const host = (guest: string) => env.home.toHost(guest);
    /** Saves the prefs to a snapshot file; Thunderbird may finish writing after the call returns (seen under load). */
    const savePrefs = async (guest: string) => {
      await tb!.run(savePrefsTo, [host(guest)]);
      await poll(`Thunderbird to write ${guest}`, 15_000, async () =>
        existsSync(host(guest)) && statSync(host(guest)).size > 0 ? true : undefined,
      );
    };
    /** Copies a file Thunderbird wrote to /home/user/snapshots/<name> (the guest path). */
    const snapshot = (guest: string, name: string) => {
      copyFileSync(host(guest), host(`/home/user/snapshots/${name}`));
      return `/home/user/snapshots/${name}`;
    };

    beforeAll(async () => {
      env = await createShellEnvironment();
      const mails = host('/home/user/mails');
      mkdirSync(mails, { recursive: true });
      const write = (name: string, text: string, encoding: BufferEncoding = 'utf8') => {
        writeFileSync(join(mails, name), Buffer.from(text, encoding));
        return join(mails, name);
      };
      const offers = [
        write('1.eml', eml(1, '20% discount', 'Big discount today.')),
        write('2.eml', eml(2, 'Weekly news', 'Nothing new.')),
      ];
      const old1 = [write('3.eml', eml(3, 'Kept', 'kept')), write('4.eml', eml(4, 'Gone', 'gone'))];
      const old2 = [
        write('5.eml', eml(5, 'Other', 'other')),
        write('6.eml', eml(6, 'Also gone', 'also gone')),
      ];
      // one message whose headers start with MIME-Version (the only case upstream's ignore_keys removes the keys)
      const mimeFirst = [write('8.eml', eml(8, 'Tagged', 'tagged', 'UTF-8', true))];
      const fromFirst = [write('9.eml', eml(9, 'Tagged too', 'tagged too'))];
      const latin = [write('7.eml', eml(7, 'Gruesse', 'Grüße aus Köln', 'ISO-8859-1'), 'latin1')];

      tb = await startThunderbird(env.home.root, host(guestProfile));
      const key = (await tb.run(setupAccount)) as string;
      expect(key).toBe('id1');
      mkdirSync(host('/home/user/snapshots'), { recursive: true });
      await savePrefs('/home/user/snapshots/prefs-before.js');
      await tb.run(saveFilter, ['discount', false]);
      snapshot(`${localFolders}/msgFilterRules.dat`, 'filter-disabled.dat');
      await tb.run(saveFilter, ['sale', true]);
      snapshot(`${localFolders}/msgFilterRules.dat`, 'filter-other-condition.dat');
      await tb.run(saveFilter, ['discount', true]);
      await tb.run(saveQuotedFilter);
      await tb.run('MailServices.accounts.getIdentity(arguments[0]).htmlSigText = "Anonym\\tXYZ Lab";', [
        key,
      ]);
      await savePrefs('/home/user/snapshots/prefs-tab.js');
      await tb.run(changeSettings, [key, signature]);
      expect(await tb.run(fillFolder, ['Offers', offers, false])).toBe(2);
      snapshot(`${localFolders}/Offers`, 'Offers-read');
      await tb.run(markFirstUnread, ['Offers']);
      await tb.run(fillFolder, ['Old1', old1, true]);
      await tb.run(fillFolder, ['Old2', old2, true]);
      await tb.run(fillFolder, ['Latin', latin, false]);
      for (const [name, files] of [
        ['Tagged1', mimeFirst],
        ['Tagged2', fromFirst],
      ] as const) {
        await tb.run(fillFolder, [name, files, false]);
        snapshot(`${localFolders}/${name}`, `${name}-before`);
        await tb.run(tagAll, [name]);
      }
      await tb.quit();
      tb = undefined;
    }, 120_000);
    afterAll(async () => {
      await tb?.kill();
      await env?.close();
    });

    it('are in the thunderbird family', () =>
      expect(metricFamilyOf('check_thunderbird_filter')).toBe('thunderbird'));

    it('check_thunderbird_prefs: OSWorld rules on prefs.js fetched by vm_file, 1 after the change and 0 before it', async () => {
      const after = await vmFile(`${guestProfile}/prefs.js`);
      const before = await vmFile('/home/user/snapshots/prefs-before.js');
      expect(readFileSync(before, 'utf8')).toMatch(
        /user_pref\("extensions\.activeThemeID", "default-theme@mozilla\.org"\);\n[^]*user_pref\("mail\.identity\.id1\.fullName", "Ann Lee"\);/,
      );
      const rules = [
        { expect: { 'mail.identity.id1.htmlSigText': { method: 're.S', ref: 'Anonym.+XYZ Lab' } } }, // 6766f2b8
        { expect: { 'mail.identity.id1.auto_quote': { method: 'eq', ref: false } } }, // 030eeff7
        { expect: { 'extensions.activeThemeID': { method: 're', ref: 'dark' } } }, // 94760984
      ];
      for (const rule of rules) {
        expect((await runMetric('check_thunderbird_prefs', after, rule)).score, JSON.stringify(rule)).toBe(1);
        expect((await runMetric('check_thunderbird_prefs', before, rule)).score, JSON.stringify(rule)).toBe(
          0,
        );
      }
      // prefs.js escapes the quotes, backslash and line breaks; the value read back is the one set, exactly
      expect(readFileSync(after, 'utf8')).toContain(
        'Anonym \\"Anon\\" Müller\\\\Team ✓</div>\\n<div>XYZ Lab',
      );
      expect(
        (
          await runMetric('check_thunderbird_prefs', after, {
            expect: { 'mail.identity.id1.htmlSigText': { method: 'eq', ref: signature } },
          })
        ).score,
      ).toBe(1);
      // without re.S the `.` does not cross the line break
      expect(
        (
          await runMetric('check_thunderbird_prefs', after, {
            expect: { 'mail.identity.id1.htmlSigText': { method: 're', ref: 'Anonym.+XYZ Lab' } },
          })
        ).score,
      ).toBe(0);
      expect(
        (
          await runMetric('check_thunderbird_prefs', after, {
            unexpect: { 'mail.identity.id1.auto_quote': { method: 'eq', ref: false } },
          })
        ).score,
      ).toBe(0);
    });

    it('check_thunderbird_prefs: a tab in a string pref is written raw, which JSON (and so OSWorld) refuses', async () => {
      const tab = await vmFile('/home/user/snapshots/prefs-tab.js');
      expect(readFileSync(tab, 'utf8')).toContain('"Anonym\tXYZ Lab"');
      const out = await runMetric('check_thunderbird_prefs', tab, {
        expect: { 'mail.identity.id1.htmlSigText': { method: 're.S', ref: 'Anonym.+XYZ Lab' } },
      });
      expect(out.score).toBe(0);
      expect(out.reason).toMatch(/mail\.identity\.id1\.htmlSigText.*not JSON/);
    });

    it('check_thunderbird_filter: OSWorld e1e75309 on msgFilterRules.dat fetched by vm_file; disabled or another condition scores 0', async () => {
      const rule = {
        expect: [
          {
            enabled: 'yes',
            action: 'Move to folder',
            actionValue: 'mailbox://nobody@Local%20Folders/Promotions',
            condition: ['AND (subject,contains,discount)'],
          },
        ],
      };
      expect(
        (
          await runMetric(
            'check_thunderbird_filter',
            await vmFile(`${localFolders}/msgFilterRules.dat`),
            rule,
          )
        ).score,
      ).toBe(1);
      expect(
        (
          await runMetric(
            'check_thunderbird_filter',
            await vmFile('/home/user/snapshots/filter-disabled.dat'),
            rule,
          )
        ).score,
      ).toBe(0);
      expect(
        (
          await runMetric(
            'check_thunderbird_filter',
            await vmFile('/home/user/snapshots/filter-other-condition.dat'),
            rule,
          )
        ).score,
      ).toBe(0);
      expect(
        (
          await runMetric('check_thunderbird_filter', await vmFile(`${localFolders}/msgFilterRules.dat`), {
            ...rule,
            unexpect: [{ name: 'Promotions', enabled: 'yes' }],
          })
        ).score,
      ).toBe(0);
    });

    it('check_thunderbird_filter: quoted names and condition values as Thunderbird escapes them', async () => {
      const file = await vmFile(`${localFolders}/msgFilterRules.dat`);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(
        'condition="OR (subject,doesn\'t contain,\\"say \\\\"hi\\\\" (now)\\") OR (from,is,ä@example.org)"',
      );
      const quoted = {
        name: 'Say "hi" \\ é',
        enabled: 'no',
        type: '17',
        action: 'Delete',
        condition: ['OR (subject,doesn\'t contain,"say \\"hi\\" (now)")', 'OR (from,is,ä@example.org)'],
      };
      expect((await runMetric('check_thunderbird_filter', file, { expect: [quoted] })).score).toBe(1);
      expect(
        (
          await runMetric('check_thunderbird_filter', file, {
            expect: [{ ...quoted, condition: ['OR (from,is,ä@example.org)'] }],
          })
        ).score,
      ).toBe(0);
    });

    it('check_thunderbird_folder: mbox files Thunderbird wrote; a message marked unread differs unless ignore_status', async () => {
      const unread = await vmFile(`${localFolders}/Offers`);
      const read = await vmFile('/home/user/snapshots/Offers-read');
      expect(readFileSync(read, 'utf8')).toMatch(/^From - .*\r\nX-Mozilla-Status: 0001\n/);
      expect(readFileSync(unread, 'utf8')).toMatch(/^From - .*\r\nX-Mozilla-Status: 0000\n/);
      expect((await runMetric('check_thunderbird_folder', unread, unread)).score).toBe(1);
      expect((await runMetric('check_thunderbird_folder', read, unread)).score).toBe(0);
      expect((await runMetric('check_thunderbird_folder', read, unread, { ignore_status: true })).score).toBe(
        1,
      );
    });

    it('check_thunderbird_folder: Thunderbird separates messages with "From - ", not "FROM - ", so one deleted message drops the whole file', async () => {
      const old1 = await vmFile(`${localFolders}/Old1`);
      const old2 = await vmFile(`${localFolders}/Old2`);
      expect(readFileSync(old1, 'utf8')).toContain('X-Mozilla-Status: 0009');
      expect((await runMetric('check_thunderbird_folder', old1, old2)).score).toBe(1);
      expect((await runMetric('check_thunderbird_folder', old1, old2, { remove_deleted: false })).score).toBe(
        0,
      );
      const offers = await vmFile(`${localFolders}/Offers`);
      expect((await runMetric('check_thunderbird_folder', [old1, offers], [old2, offers])).score).toBe(1);
      expect(
        (
          await runMetric(
            'check_thunderbird_folder',
            [old1, offers],
            [old2, await vmFile('/home/user/snapshots/Offers-read')],
          )
        ).score,
      ).toBe(0);
    });

    it('check_thunderbird_folder: ignore_keys drops an X-Mozilla-Keys line only when MIME-Version follows it', async () => {
      const [tagged1, before1, tagged2, before2] = await Promise.all(
        [
          `${localFolders}/Tagged1`,
          '/home/user/snapshots/Tagged1-before',
          `${localFolders}/Tagged2`,
          '/home/user/snapshots/Tagged2-before',
        ].map(vmFile),
      );
      expect(readFileSync(tagged1, 'utf8')).toMatch(/X-Mozilla-Keys: \$label1 +\nMIME-Version/);
      expect(readFileSync(tagged2, 'utf8')).toMatch(/X-Mozilla-Keys: \$label1 +\nFrom: Shop/);
      expect((await runMetric('check_thunderbird_folder', tagged1, before1)).score).toBe(0);
      expect(
        (await runMetric('check_thunderbird_folder', tagged1, before1, { ignore_keys: true })).score,
      ).toBe(1);
      expect(
        (await runMetric('check_thunderbird_folder', tagged2, before2, { ignore_keys: true })).score,
      ).toBe(0);
    });

    it('check_thunderbird_folder: a message in ISO-8859-1 is not UTF-8, so OSWorld cannot read the folder', async () => {
      const latin = await vmFile(`${localFolders}/Latin`);
      const out = await runMetric('check_thunderbird_folder', latin, latin);
      expect(out.score).toBe(0);
      expect(out.reason).toMatch(/UTF-8/);
    });
  },
);
