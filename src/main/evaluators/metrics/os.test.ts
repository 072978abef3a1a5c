import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasSqlite3, sqliteWithCli } from '../testing/cli-files';
import { runMetric, tempDir } from '../testing/fixtures';
import { convertWithLibreOffice, hasLibreOffice } from '../testing/libreoffice';
import { metricFamilyOf } from '../catalog';
import { departures } from '../profile';
import type { AccessibilityNode } from '../../env/environment';
import { accessibilityXml } from '../../observe/osworld-xml';

const tmp = tempDir();
afterAll(tmp.cleanup);
const file = (name: string, text: string | Uint8Array): string => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};

describe('OSWorld os-family metrics', () => {
  it('are registered in the os family', () => {
    expect(metricFamilyOf('check_json')).toBe('os');
    expect(metricFamilyOf('is_utc_0')).toBe('os');
  });

  it('check_json: expect and unexpect rules along keys, YAML too', async () => {
    const p = file('s.json', JSON.stringify({ editor: { fontSize: 14, theme: 'Dark+' } }));
    const rules = {
      expect: [
        { key: ['editor', 'fontSize'], method: 'eq', ref: 14 },
        { key: ['editor', 'theme'], method: 're.I', ref: '^dark' },
      ],
      unexpect: [{ key: ['editor', 'wrap'], method: 'eq', ref: 'on' }],
    };
    expect((await runMetric('check_json', p, rules)).score).toBe(1);
    expect(
      (await runMetric('check_json', p, { expect: [{ key: ['editor', 'fontSize'], method: 'gt', ref: 20 }] }))
        .score,
    ).toBe(0);
    expect(
      (await runMetric('check_json', p, { expect: [{ key: ['nope'], method: 'eq', ref: 1 }] })).score,
    ).toBe(0);
    const y = file('c.yml', 'title: Blog\nport: 4000\n');
    expect(
      (
        await runMetric(
          'check_json',
          y,
          { expect: [{ key: ['port'], method: 'approx:1', ref: 4000.5 }] },
          { is_yaml: true },
        )
      ).score,
    ).toBe(1);
    expect((await runMetric('check_json', undefined, { expect: [] })).score).toBe(0);
  });

  it('check_direct_json_object: single-quoted text, exact keys, expect_in_result', async () => {
    expect(
      (
        await runMetric('check_direct_json_object', "{'name': 'Ann', 'age': 3}", {
          expected: { name: 'Ann' },
        })
      ).score,
    ).toBe(1);
    expect(
      (await runMetric('check_direct_json_object', { name: 'Bob' }, { expected: { name: 'Ann' } })).score,
    ).toBe(0);
    expect(
      (
        await runMetric(
          'check_direct_json_object',
          { city: 'Paris, France' },
          { expected: { city: 'Paris' }, expect_in_result: true },
        )
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric(
          'check_direct_json_object',
          { city: 'Lyon' },
          { expected: { city: ['Paris', 'Nice'] }, expect_in_result: true },
        )
      ).score,
    ).toBe(0);
  });

  it('check_csv and check_list on files', async () => {
    const csv = file('t.csv', 'name,qty\napple,3\npear,5\n');
    expect(
      (
        await runMetric('check_csv', csv, {
          expect: [{ name: 'pear', qty: '5' }],
          unexpect: [{ name: 'plum' }],
        })
      ).score,
    ).toBe(1);
    expect((await runMetric('check_csv', csv, { expect: [{ name: 'pear', qty: '6' }] })).score).toBe(0);
    const list = file('l.txt', 'alpha 1\nbeta 2\n');
    expect((await runMetric('check_list', list, { expect: ['^beta \\d'], unexpect: ['gamma'] })).score).toBe(
      1,
    );
    expect((await runMetric('check_list', list, { expect: ['delta'] })).score).toBe(0);
  });

  it('is_in_list, match_in_list, file_contains, check_line_number', async () => {
    expect((await runMetric('is_in_list', ['a', 'b'], { expected: 'b' })).score).toBe(1);
    expect((await runMetric('is_in_list', ['a', 'b'], { expected: 'c' })).score).toBe(0);
    expect((await runMetric('match_in_list', 'x', { expected: ['x', 'y'] })).score).toBe(1);
    expect((await runMetric('match_in_list', 'z', { expected: ['x', 'y'] })).score).toBe(0);
    const t = file('f.txt', '12:00:01 start\nnote\n23:59:59 end\n');
    expect((await runMetric('file_contains', t, { expected: ['start', 'end'] })).score).toBe(1);
    expect((await runMetric('file_contains', t, { expected: ['middle'] })).score).toBe(0);
    expect((await runMetric('check_line_number', t, { expected: 2 })).score).toBe(1);
    expect((await runMetric('check_line_number', t, { expected: 3 })).score).toBe(0);
  });

  it('compare_python_pure_text ignores shebang, blank lines and tabs, not code', async () => {
    const a = file('a.py', '#!/usr/bin/env python3\ndef f():\n\treturn 1\n\n\nprint(f())\n');
    const b = file('b.py', 'def f():\n    return 1\nprint(f())   \n');
    const c = file('c.py', 'def f():\n    return 2\nprint(f())\n');
    expect((await runMetric('compare_python_pure_text', a, b)).score).toBe(1);
    expect((await runMetric('compare_python_pure_text', c, b)).score).toBe(0);
  });

  it('is_utc_0 reads the time zone line of timedatectl', async () => {
    const out = (tz: string) =>
      `               Local time: Sun 2026-11-22 21:00:00 UTC\n           Universal time: Sun 2026-11-22 21:00:00 UTC\n                 RTC time: n/a\n                Time zone: ${tz}\nSystem clock synchronized: yes\n`;
    expect((await runMetric('is_utc_0', out('Etc/UTC (UTC, +0000)'), {})).score).toBe(1);
    expect((await runMetric('is_utc_0', out('Europe/Paris (CET, +0100)'), {})).score).toBe(0);
  });

  it.skipIf(!hasSqlite3)(
    'run_sqlite3 scores the first value of the query on a database the sqlite3 shell wrote',
    async () => {
      const p = sqliteWithCli(
        tmp.dir,
        'todo.sqlite',
        "CREATE TABLE tasks (title TEXT, done INTEGER); INSERT INTO tasks VALUES ('write', 1), ('review', 0);",
      );
      expect((await runMetric('run_sqlite3', p, { sql: 'SELECT COUNT(*) = 2 FROM tasks' })).score).toBe(1);
      expect((await runMetric('run_sqlite3', p, { sql: 'SELECT COUNT(*) = 3 FROM tasks' })).score).toBe(0);
      // fractional as in OSWorld (float of the value): half the tasks are done
      expect((await runMetric('run_sqlite3', p, { sql: 'SELECT AVG(done) FROM tasks' })).score).toBe(0.5);
      // NULL counts as 0; values outside 0–1 are clamped into it (OSWorld would return 2.0 and -1.0)
      expect(
        (await runMetric('run_sqlite3', p, { sql: "SELECT MAX(done) FROM tasks WHERE title = 'none'" }))
          .score,
      ).toBe(0);
      expect((await runMetric('run_sqlite3', p, { sql: 'SELECT COUNT(*) FROM tasks' })).score).toBe(1);
      expect((await runMetric('run_sqlite3', p, { sql: 'SELECT -1' })).score).toBe(0);
      expect((await runMetric('run_sqlite3', p, { sql: 'SELECT * FROM missing' })).score).toBe(0);
      expect(departures().some((d) => d.metric === 'run_sqlite3' && d.case === 'values outside 0–1')).toBe(
        true,
      );
    },
  );

  it('check_gnome_favorite_apps parses gsettings output without evaluating it', async () => {
    const out = "['thunderbird.desktop', 'vim.desktop', 'google-chrome.desktop']\n";
    expect(
      (
        await runMetric('check_gnome_favorite_apps', out, {
          expected: ['vim.desktop', 'google-chrome.desktop', 'thunderbird.desktop'],
        })
      ).score,
    ).toBe(1);
    expect((await runMetric('check_gnome_favorite_apps', out, { expected: ['vim.desktop'] })).score).toBe(0);
    expect((await runMetric('check_gnome_favorite_apps', '@as []', { expected: [] })).score).toBe(1);
    expect((await runMetric('check_gnome_favorite_apps', "__import__('os')", { expected: [] })).score).toBe(
      0,
    );
  });

  it('check_moved_jpgs, is_in_vm_clickboard, check_text_enlarged', async () => {
    const tree = {
      type: 'directory',
      name: 'photos',
      children: [
        { type: 'file', name: 'a.jpg' },
        { type: 'file', name: 'b.jpg' },
      ],
    };
    expect((await runMetric('check_moved_jpgs', tree, { expected: ['b.jpg', 'a.jpg'] })).score).toBe(1);
    expect((await runMetric('check_moved_jpgs', tree, { expected: ['a.jpg'] })).score).toBe(0);
    expect(
      (await runMetric('is_in_vm_clickboard', { expected: ['hello', 'world'] }, 'hello world\n')).score,
    ).toBe(1);
    expect((await runMetric('is_in_vm_clickboard', { expected: 'bye' }, 'hello world\n')).score).toBe(0);
    expect((await runMetric('check_text_enlarged', '1.25\n', {})).score).toBe(1);
    expect((await runMetric('check_text_enlarged', '1.0', {})).score).toBe(0);
  });
});

describe.skipIf(!hasLibreOffice)('OSWorld check_csv on a CSV file LibreOffice Calc saved', () => {
  /** A flat ODF spreadsheet (`.fods`) with one row per record; LibreOffice saves it as CSV. */
  const sheet = (rows: string[][]) => {
    const cell = (v: string) =>
      /^\d+$/.test(v)
        ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`
        : `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
    return `<?xml version="1.0" encoding="UTF-8"?>\n<office:document ${ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet"><office:body><office:spreadsheet><table:table table:name="Sheet1">${rows.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('')}</table:table></office:spreadsheet></office:body></office:document>\n`;
  };

  it('every expected record present 1; a wrong value or an unexpected record 0', async () => {
    const src = file(
      'orders.fods',
      sheet([
        ['name', 'qty', 'city'],
        ['apple', '3', 'Paris, France'],
        ['pear', '5', 'Lyon'],
      ]),
    );
    const out = join(tmp.dir, 'csv-out');
    convertWithLibreOffice(
      tmp.dir,
      [src],
      'csv:Text - txt - csv (StarCalc):44,34,UTF-8,1,,0,false,true,true,false,false',
      out,
    );
    const csv = join(out, 'orders.csv');
    expect(
      (
        await runMetric('check_csv', csv, {
          expect: [
            { name: 'pear', qty: '5' },
            { name: 'apple', city: 'Paris, France' },
          ],
          unexpect: [{ name: 'plum' }],
        })
      ).score,
    ).toBe(1);
    expect((await runMetric('check_csv', csv, { expect: [{ name: 'pear', qty: '6' }] })).score).toBe(0);
    expect(
      (await runMetric('check_csv', csv, { expect: [{ name: 'apple' }], unexpect: [{ city: 'Lyon' }] }))
        .score,
    ).toBe(0);
  });
});

describe('OSWorld check_accessibility_tree over Proctor-written XML', () => {
  /** A tree as the guest server writes it: a browser frame with an address bar, and an editor with text. */
  const node = (
    role: string,
    name: string,
    states: string[],
    children: AccessibilityNode[] = [],
    text?: string,
  ): AccessibilityNode => ({ role, name, states, children, text, x: 0, y: 0, width: 10, height: 10 });
  const xml = accessibilityXml(
    [
      node(
        'application',
        'Chromium',
        [],
        [
          node(
            'frame',
            'Proctor - Chromium',
            ['active', 'showing', 'visible'],
            [node('entry', 'Address and search bar', ['editable', 'focused'], [], 'example.org/settings')],
          ),
        ],
      ),
      node(
        'application',
        'mousepad',
        [],
        [
          node(
            'frame',
            'notes.txt',
            ['showing'],
            [node('text', '', ['editable'], [node('label', 'inner', [])], 'first line\nsecond line')],
          ),
        ],
      ),
    ],
    { width: 1024, height: 768 },
  );
  const run = (rules: unknown, options: Record<string, unknown> = {}) =>
    runMetric('check_accessibility_tree', xml, rules, options);

  it('is in the os family', () => expect(metricFamilyOf('check_accessibility_tree')).toBe('os'));

  it('CSS selectors with namespaced attributes and exact text: 1; other text or no element: 0', async () => {
    const sel = ['application[name=Chromium] frame[st|active=true] > entry[name="Address and search bar"]'];
    expect((await run([{ selectors: sel, text: 'example.org/settings', exact: true }])).score).toBe(1);
    expect((await run([{ selectors: sel, text: 'example.org/setting', exact: true }])).score).toBe(0);
    expect(
      (await run([{ selectors: ['application[name=Chromium] entry[name=Address\\ and\\ search\\ bar]'] }]))
        .score,
    ).toBe(1);
    expect((await run([{ selectors: ['application[name=Chromium] > entry'] }])).score).toBe(0);
    expect(
      (await run([{ selectors: ['application[name=mousepad] frame[st|active=true] text'] }])).score,
    ).toBe(0);
  });

  it('XPath wins over selectors; predicates joined by and', async () => {
    const rule = {
      xpath: "//application[@name='mousepad']/frame//text[@st:editable='true' and @name='']",
      selectors: ['push-button'],
      text: 'first line\nsecond line',
      exact: true,
    };
    expect((await run([rule])).score).toBe(1);
    expect((await run([{ ...rule, xpath: '//application/push-button' }])).score).toBe(0);
  });

  it("text is the element's own text before its first child (lxml's .text); fuzzy rules multiply", async () => {
    const fuzzy = await run([
      { xpath: '//entry', text: 'example.org/setting', exact: false },
      { xpath: '//text', text: 'first line\nsecond lime', exact: false },
    ]);
    expect(fuzzy.score).toBeCloseTo(((2 * 19) / 39) * ((2 * 21) / 44), 6); // rapidfuzz ratios: LCS 19 of 19+20, LCS 21 of 22+22
    expect((await run([{ xpath: '//label', text: 'inner', exact: false }])).score).toBe(0);
  });

  it('as OSWorld: text without exact, no selector, another osname, bad XML all score 0', async () => {
    expect((await run([{ xpath: '//entry', text: 'example.org/settings' }])).reason).toMatch(/exact/);
    expect((await run([{ text: 'x', exact: true }])).reason).toMatch(/neither/);
    expect((await run([{ selectors: ['frame[st|active=true]'] }], { osname: 'windows' })).score).toBe(0);
    expect(
      (
        await runMetric('check_accessibility_tree', '<desktop-frame><oops></desktop-frame>', [
          { xpath: '//x' },
        ])
      ).score,
    ).toBe(0);
  });

  it('XPath functions and CSS pseudo-classes select as lxml does', async () => {
    expect(
      (
        await run([
          {
            xpath: "//application[@name='Chromium']//*[contains(@name, 'Address')]",
            text: 'example.org/settings',
            exact: true,
          },
        ])
      ).score,
    ).toBe(1);
    expect(
      (await run([{ xpath: "//application[@name='Chromium']//*[contains(@name, 'address')]" }])).score,
    ).toBe(0); // contains() is case-sensitive
    expect((await run([{ selectors: ['entry:focus'] }])).reason).toMatch(/no element/); // cssselect: never matches
  });
});

/**
 * OSWorld's own XML as its guest's getter writes it (lxml: prefixed attributes, element text) for a Thunderbird
 * window, and the rules of real OSWorld tasks: thunderbird/12086550-… (CSS with `attr|id`) and the account-setup
 * task's XPath rules (contains() over text() and @name joined by `or`).
 */
describe('check_accessibility_tree with the selectors of OSWorld tasks', () => {
  const NS = 'https://accessibility.ubuntu.example.org/ns';
  const tree = (body: string, attrPrefix = 'attr'): string =>
    `<desktop-frame xmlns:st="${NS}/state" xmlns:${attrPrefix}="${NS}/attributes" xmlns:cp="${NS}/component" name="main" cp:screencoord="(0, 0)" cp:size="(1920, 1080)">` +
    `<application name="Thunderbird" cp:screencoord="(0, 0)"><frame name="Account Setup - Mozilla Thunderbird" st:active="true" st:showing="true">${body}</frame></application>` +
    '<application name="gnome-shell"><panel name="Top Bar" st:showing="true"><label name="Clock">Mon 10:00</label></panel></application></desktop-frame>';
  const tabs = (id: string, attrPrefix = 'attr'): string =>
    `<page-tab-list name="" ${attrPrefix}:id="${id}" st:showing="true"><page-tab name="Inbox" st:selectable="true"/><page-tab name="About Profiles" st:selected="true"/></page-tab-list>`;
  const login =
    '<entry name="Email address" st:editable="true">anonym-x2024@outlook.com</entry><password-text name="Password" st:editable="true"/><push-button name="Continue"/>';
  const profiles = [
    {
      selectors: [
        'application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="About Profiles"]',
      ],
    },
  ];
  const loginRules = [
    {
      xpath:
        "//application[@name='Thunderbird']//*[contains(text(), 'anonym-x2024@outlook.com') or contains(@name, 'anonym-x2024@outlook.com')]",
    },
    {
      xpath:
        "//application[@name='Thunderbird']//*[contains(@name, 'password') or contains(@name, 'Password')]",
    },
  ];
  const check = async (xml: string, rules: unknown, options: Record<string, unknown> = {}) =>
    runMetric('check_accessibility_tree', xml, rules, options);

  it('thunderbird/12086550 (CSS, attr|id): 1 with the About Profiles tab; 0 with another id or an id in no namespace', async () => {
    expect((await check(tree(tabs('tabmail-tabs')), profiles)).score).toBe(1);
    // lxml matches the namespace, not the prefix the document happens to use
    expect((await check(tree(tabs('tabmail-tabs', 'a'), 'a'), profiles)).score).toBe(1);
    expect((await check(tree(tabs('other-tabs')), profiles)).score).toBe(0);
    expect((await check(tree(tabs('tabmail-tabs').replace('attr:id', 'id')), profiles)).score).toBe(0);
    expect(
      (
        await check(tree(tabs('tabmail-tabs')), [
          { selectors: ['application[name=Thunderbird] page-tab-list[id="tabmail-tabs"]'] },
        ])
      ).score,
    ).toBe(0);
    // under osname windows the prefixes stand for other namespaces
    expect((await check(tree(tabs('tabmail-tabs')), profiles, { osname: 'windows' })).score).toBe(0);
  });

  it('the account-setup XPath rules (contains() over text() and @name): 1 when filled in, 0 before', async () => {
    expect((await check(tree(login), loginRules)).score).toBe(1);
    expect((await check(tree(login.replace('anonym-x2024@outlook.com', '')), loginRules)).score).toBe(0);
    expect((await check(tree(login.replace('name="Password"', 'name="Secret"')), loginRules)).score).toBe(0);
    // the gnome-shell clock is outside the Thunderbird application
    expect(
      (
        await check(tree(login), [
          { xpath: "//application[@name='Thunderbird']//*[contains(text(), 'Mon 10')]" },
        ])
      ).score,
    ).toBe(0);
  });

  it('CSS pseudo-classes as cssselect: :contains() ignores case over all descendant text, structural ones by position', async () => {
    const xml = tree(tabs('tabmail-tabs') + login);
    expect(
      (
        await check(xml, [
          {
            selectors: ['frame[st|active=true] entry:contains("ANONYM-X2024")'],
            text: 'anonym-x2024@outlook.com',
            exact: true,
          },
        ])
      ).score,
    ).toBe(1);
    expect((await check(xml, [{ selectors: ['application:contains("outlook.com")'] }])).score).toBe(1);
    expect((await check(xml, [{ selectors: ['push-button:contains(Continue)'] }])).score).toBe(0); // the name is no text
    expect(
      (await check(xml, [{ selectors: ['page-tab-list > page-tab:last-child[name="About Profiles"]'] }]))
        .score,
    ).toBe(1);
    expect(
      (await check(xml, [{ selectors: ['page-tab-list > page-tab:first-child[name="About Profiles"]'] }]))
        .score,
    ).toBe(0);
    expect(
      (await check(xml, [{ selectors: ['frame > :not(page-tab-list):not(entry)[st|editable]'] }])).score,
    ).toBe(1);
    expect(
      (await check(xml, [{ selectors: ['desktop-frame:root > application[name=Thunderbird]'] }])).score,
    ).toBe(1);
    expect((await check(xml, [{ selectors: ['page-tab:hover'] }])).score).toBe(0); // cssselect: never matches
  });

  it('XPath positions, unions, attributes and non-node results as lxml returns them', async () => {
    const xml = tree(tabs('tabmail-tabs') + login);
    expect(
      (
        await check(xml, [
          { xpath: "//page-tab-list[@attr:id='tabmail-tabs']/page-tab[2][@st:selected='true']" },
        ])
      ).score,
    ).toBe(1);
    expect((await check(xml, [{ xpath: "//page-tab-list/page-tab[1][@st:selected='true']" }])).score).toBe(0);
    expect((await check(xml, [{ xpath: '//entry | //label', text: 'Mon 10:00', exact: true }])).score).toBe(
      1,
    );
    expect((await check(xml, [{ xpath: '//entry/@name' }])).score).toBe(1); // attribute nodes count …
    expect(
      (await check(xml, [{ xpath: '//entry/@name', text: 'Email address', exact: true }])).reason,
    ).toMatch(/no \.text/); // … but have no .text
    expect((await check(xml, [{ xpath: 'string(//entry)' }])).score).toBe(1); // a non-empty string: len() > 0
    expect((await check(xml, [{ xpath: 'count(//page-tab)' }])).reason).toMatch(/TypeError/);
    // XPath 1.0: contains() reads the first text node only, `=` compares each
    const split = tree('<label name="split">first<icon name="i"/>second</label>');
    expect((await check(split, [{ xpath: "//label[contains(text(), 'second')]" }])).score).toBe(0);
    expect((await check(split, [{ xpath: "//label[contains(text(), 'first')]" }])).score).toBe(1);
    expect(
      (await check(split, [{ xpath: "//label[text() = 'second']", text: 'first', exact: true }])).score,
    ).toBe(1);
    expect((await check(split, [{ selectors: ['label:contains("first second")'] }])).score).toBe(0);
    expect((await check(split, [{ selectors: ['label:contains("firstsecond")'] }])).score).toBe(1);
    // namespace declarations are no attributes: the root has name, cp:screencoord and cp:size only
    expect((await check(xml, [{ xpath: '/desktop-frame[count(@*) = 3]' }])).score).toBe(1);
    expect((await check(xml, [{ selectors: ['desktop-frame[xmlns\\:st]'] }])).score).toBe(0);
  });

  it('registers only the departure that remains (the namespace:: axis)', () => {
    const cases = departures()
      .filter((d) => d.metric === 'check_accessibility_tree')
      .map((d) => d.case);
    expect(cases).toContain("XPath's namespace:: axis");
    expect(cases.some((c) => /pseudo-classes/.test(c))).toBe(false);
  });

  it('what lxml refuses scores 0 naming it', async () => {
    const xml = tree(tabs('tabmail-tabs'));
    expect((await check(xml, [{ selectors: ['page-tab-list[foo|id="tabmail-tabs"]'] }])).reason).toMatch(
      /prefix 'foo'/,
    );
    expect((await check(xml, [{ xpath: "//page-tab-list[@foo:id='tabmail-tabs']" }])).score).toBe(0);
    expect((await check(xml, [{ selectors: ['page-tab:focus-within'] }])).reason).toMatch(/unknown/);
    expect((await check(xml, [{ selectors: [':first-of-type'] }])).reason).toMatch(/not implemented/);
    expect((await check(xml, [{ selectors: ['page-tab::before'] }])).reason).toMatch(/pseudo-element/);
    expect((await check(xml, [{ xpath: '//page-tab[' }])).score).toBe(0);
    // a string of selectors is joined character by character, as Python's ", ".join does: "p, a, n, e, l" finds no panel
    expect((await check(tree(''), [{ selectors: 'panel' }])).score).toBe(0);
    expect((await check(tree(''), [{ selectors: ['panel'] }])).score).toBe(1);
    expect((await check(`<?xml version="1.0" encoding="UTF-8"?>${xml}`, profiles)).reason).toMatch(
      /encoding/,
    );
  });
});
