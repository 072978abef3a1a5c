// OSWorld's accessibility XML → AccessibilityNode forest: roles, names, states, boxes, text, applications.
import { describe, expect, it } from 'vitest';
import { accessibilityXmlOf, parseAccessibilityXml } from './accessibility-xml';
import { SAMPLE_ACCESSIBILITY_XML } from './testing/sample-accessibility';

const walk = (
  nodes: { children?: unknown[] }[],
  out: Record<string, unknown>[] = [],
): Record<string, unknown>[] => {
  for (const n of nodes) {
    out.push(n as Record<string, unknown>);
    walk((n.children ?? []) as { children?: unknown[] }[], out);
  }
  return out;
};

describe('parseAccessibilityXml', () => {
  const apps = parseAccessibilityXml(SAMPLE_ACCESSIBILITY_XML);
  const all = walk(apps);
  const byName = (name: string) => all.find((n) => n.name === name)!;

  it('gives one root per application, in document order, each node knowing its app', () => {
    expect(apps.map((a) => [a.role, a.name, a.app])).toEqual([
      ['application', 'gnome-shell', 'gnome-shell'],
      ['application', 'soffice', 'soffice'],
    ]);
    expect(byName('Name Box').app).toBe('soffice');
    expect(byName('Activities').app).toBe('gnome-shell');
    expect(all).toHaveLength(13);
  });

  it('reads the box from cp:screencoord and cp:size, -1 where there is none', () => {
    expect(byName('Activities')).toMatchObject({ role: 'push-button', x: 0, y: 0, width: 102, height: 32 });
    expect(byName('B2')).toMatchObject({ role: 'table-cell', x: 171, y: 213, width: 81, height: 18 });
    expect(byName('Hidden menu')).toMatchObject({ x: -1, y: -1, width: -1, height: -1 });
  });

  it('reads states that are true, with hyphens for underscores', () => {
    expect(byName('Activities').states).toEqual([
      'focusable',
      'visible',
      'showing',
      'enabled',
      'has-tooltip',
    ]);
    expect(byName('Name Box').states).toEqual(expect.arrayContaining(['editable', 'focused']));
    expect(byName('B2').states).not.toContain('multi-line');
  });

  it('reads text, class and description', () => {
    expect(byName('Name Box')).toMatchObject({ text: 'A1', description: 'Enter a cell reference' });
    expect(byName('B2').text).toBe('42 & <more>');
    expect(byName('Untitled 1 - LibreOffice Calc')).toMatchObject({
      role: 'frame',
      className: 'libreoffice-calc',
    });
    expect(byName('Zoom').text).toBeUndefined();
    expect(all.every((n) => n.source === 'atspi')).toBe(true);
  });

  it('keeps children in order under their parents', () => {
    const frame = byName('Untitled 1 - LibreOffice Calc') as { children: { name: string }[] };
    expect(frame.children.map((c) => c.name)).toEqual(['Menu Bar', 'Name Box', 'B2', 'Zoom']);
  });

  it("reads the source Proctor's server writes (attr:source), AT-SPI otherwise", () => {
    const xml =
      '<desktop-frame xmlns:attr="https://accessibility.ubuntu.example.org/ns/attributes" xmlns:cp="https://accessibility.ubuntu.example.org/ns/component">' +
      '<application name="cdp" cp:screencoord="(0, 0)" cp:size="(0, 0)"><document-web name="Page" attr:source="cdp" cp:screencoord="(0, 80)" cp:size="(800, 600)">Hello</document-web></application>' +
      '</desktop-frame>';
    const [app] = parseAccessibilityXml(xml);
    expect(app).toMatchObject({ role: 'application', source: 'atspi', x: 0, width: 0 });
    expect(app.children?.[0]).toMatchObject({
      role: 'document-web',
      name: 'Page',
      source: 'cdp',
      app: 'cdp',
      text: 'Hello',
      y: 80,
      height: 600,
    });
  });

  it('caps nodes and depth', () => {
    expect(walk(parseAccessibilityXml(SAMPLE_ACCESSIBILITY_XML, { maxNodes: 3 }))).toHaveLength(3);
    const shallow = walk(parseAccessibilityXml(SAMPLE_ACCESSIBILITY_XML, { maxDepth: 2 }));
    expect(shallow.map((n) => n.role)).toEqual(['application', 'window', 'application', 'frame']);
    const deep =
      '<desktop-frame>' + '<filler name="x">'.repeat(5000) + '</filler>'.repeat(5000) + '</desktop-frame>';
    expect(walk(parseAccessibilityXml(deep))).toHaveLength(200);
  });

  it('reads an empty desktop and refuses what is not one', () => {
    expect(parseAccessibilityXml('<desktop-frame/>')).toEqual([]);
    expect(parseAccessibilityXml('')).toEqual([]);
    expect(() => parseAccessibilityXml('<html><body/></html>')).toThrow(
      /GET \/accessibility: the XML's root is <html>/,
    );
    expect(() => parseAccessibilityXml('<desktop-frame><application name="a"></desktop-frame>')).toThrow(
      /not well-formed/,
    );
  });
});

describe('accessibilityXmlOf', () => {
  it('takes the AT field of the JSON answer', () => {
    expect(accessibilityXmlOf(JSON.stringify({ AT: '<desktop-frame/>' }))).toBe('<desktop-frame/>');
    expect(() => accessibilityXmlOf('<desktop-frame/>')).toThrow(/not JSON/);
    expect(() => accessibilityXmlOf('{"at": "x"}')).toThrow(/no AT field/);
    expect(() => accessibilityXmlOf('{"AT": 3}')).toThrow(/not a string/);
  });
});
