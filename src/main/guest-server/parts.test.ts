// The guest server's pure parts: shlex splitting, the multipart reader, OSWorld's python -c form and the
// accessibility XML (parsed back with an XML parser).
import { describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { shlexSplit, ShlexError } from '../text/shlex';
import { multipartBoundary, parseMultipart, MultipartError } from './multipart';
import { pyautoguiCode } from './python-form';
import { accessibilityXml, tagOf } from '../observe/osworld-xml';

describe('shlexSplit', () => {
  it('splits like a shell without running one', () => {
    expect(shlexSplit(`ls -la  "/home/user/My Files" 'a b'\\ c x\\"y`)).toEqual([
      'ls',
      '-la',
      '/home/user/My Files',
      'a b c',
      'x"y',
    ]);
    expect(shlexSplit(`echo "a \\"q\\" \\$HOME" ''`)).toEqual(['echo', 'a "q" $HOME', '']);
    expect(shlexSplit('  ')).toEqual([]);
    expect(shlexSplit('a;b $(x) `y`')).toEqual(['a;b', '$(x)', '`y`']);
  });
  it('refuses unbalanced quotes', () => {
    expect(() => shlexSplit(`echo "abc`)).toThrow(ShlexError);
    expect(() => shlexSplit(`echo 'abc`)).toThrow(/no closing quotation/);
  });
});

describe('multipart', () => {
  const body = Buffer.concat([
    Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file_path"\r\n\r\n/home/user/a.txt\r\n'),
    Buffer.from(
      '--XyZ\r\nContent-Disposition: form-data; name="file_data"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n',
    ),
    Buffer.from([0, 1, 2, 13, 10, 45, 45, 3]),
    Buffer.from('\r\n--XyZ--\r\n'),
  ]);
  it('reads fields and file parts, binary data intact', () => {
    expect(multipartBoundary('multipart/form-data; boundary=XyZ')).toBe('XyZ');
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeUndefined();
    const parts = parseMultipart(body, 'XyZ');
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['file_path', undefined, undefined],
      ['file_data', 'a.txt', 'text/plain'],
    ]);
    expect(parts[0].data.toString()).toBe('/home/user/a.txt');
    expect([...parts[1].data]).toEqual([0, 1, 2, 13, 10, 45, 45, 3]);
  });
  it('refuses a truncated body', () => {
    expect(() => parseMultipart(body.subarray(0, 120), 'XyZ')).toThrow(MultipartError);
    expect(() => parseMultipart(Buffer.from('nothing'), 'XyZ')).toThrow(/no multipart boundary/);
  });
});

describe("OSWorld's python -c form", () => {
  it('gives the code after the prefix', () => {
    expect(
      pyautoguiCode([
        'python',
        '-c',
        'import pyautogui; import time; pyautogui.FAILSAFE = False; pyautogui.click(1, 2)',
      ]),
    ).toBe('pyautogui.click(1, 2)');
    expect(
      pyautoguiCode(['/usr/bin/python3', '-c', 'import pyautogui; pyautogui.press("a")\ntime.sleep(1)']),
    ).toBe('pyautogui.press("a")\ntime.sleep(1)');
    expect(
      pyautoguiCode(['python3.11', '-c', 'import pyautogui;import time;pyautogui.FAILSAFE=False;']),
    ).toBe('');
  });
  it('leaves every other command alone', () => {
    expect(pyautoguiCode(['python', '-c', 'print(1)'])).toBeUndefined();
    expect(pyautoguiCode(['python', 'x.py'])).toBeUndefined();
    expect(pyautoguiCode(['bash', '-c', 'import pyautogui'])).toBeUndefined();
    expect(pyautoguiCode(['python', '-c', 'import pyautogui', 'extra'])).toBeUndefined();
  });
});

describe('accessibility XML', () => {
  it("writes OSWorld's shape, parseable, with escaped text", () => {
    const xml = accessibilityXml(
      [
        {
          role: 'application',
          name: 'mousepad',
          x: 0,
          y: 0,
          width: 0,
          height: 0,
          states: [],
          children: [
            {
              role: 'push button',
              name: 'Save <&> "x"',
              x: 10.4,
              y: 20,
              width: 30,
              height: 40,
              states: ['showing', 'enabled'],
              text: 'a\u0001b',
            },
          ],
        },
        {
          role: 'document web',
          name: 'Page',
          x: 0,
          y: 80,
          width: 800,
          height: 600,
          states: ['focused'],
          source: 'cdp',
          app: 'chromium',
        },
      ],
      { width: 1280, height: 800 },
    );
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const root = doc.documentElement!;
    expect(root.tagName).toBe('desktop-frame');
    const apps = Array.from(root.childNodes).filter((n) => n.nodeType === 1) as Element[];
    expect(apps.map((a) => [a.tagName, a.getAttribute('name')])).toEqual([
      ['application', 'mousepad'],
      ['application', 'chromium'],
    ]);
    const button = doc.getElementsByTagName('push-button')[0];
    expect(button.getAttribute('name')).toBe('Save <&> "x"');
    expect(button.getAttributeNS('https://accessibility.ubuntu.example.org/ns/state', 'enabled')).toBe(
      'true',
    );
    expect(
      button.getAttributeNS('https://accessibility.ubuntu.example.org/ns/component', 'screencoord'),
    ).toBe('(10, 20)');
    expect(button.getAttributeNS('https://accessibility.ubuntu.example.org/ns/component', 'size')).toBe(
      '(30, 40)',
    );
    expect(button.textContent).toBe('ab');
    expect(
      doc
        .getElementsByTagName('document-web')[0]
        .getAttributeNS('https://accessibility.ubuntu.example.org/ns/state', 'focused'),
    ).toBe('true');
  });
  it('makes any role a valid tag', () => {
    expect(tagOf('Push Button')).toBe('push-button');
    expect(tagOf('3d <thing>')).toBe('unknown');
  });
});
