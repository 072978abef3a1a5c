import { describe, expect, it } from 'vitest';
import type { AccessibilityNode } from '../env/environment';
import { filterNodes, flattenTree, isShownNode } from './filter';

const SHOWN = ['enabled', 'sensitive', 'showing', 'visible'];
const node = (over: Partial<AccessibilityNode>): AccessibilityNode => ({
  role: 'push-button',
  name: 'OK',
  x: 10,
  y: 10,
  width: 80,
  height: 24,
  states: SHOWN,
  ...over,
});

describe('filterNodes (the OSWorld judge_node rule)', () => {
  it('keeps interactive and content roles and drops structural ones', () => {
    const kept = [
      'push-button',
      'menu-item',
      'link',
      'entry',
      'text',
      'heading',
      'document-web',
      'check-box',
      'menu',
      'static',
      'paragraph',
    ];
    const dropped = [
      'filler',
      'panel',
      'frame',
      'menu-bar',
      'separator',
      'scroll-pane',
      'page-tab-list',
      'application',
    ];
    for (const role of kept) expect(isShownNode(node({ role })), role).toBe(true);
    for (const role of dropped) expect(isShownNode(node({ role })), role).toBe(false);
  });

  it('needs showing and visible, and enabled or editable or expandable or checkable', () => {
    expect(isShownNode(node({ states: ['enabled', 'showing'] }))).toBe(false);
    expect(isShownNode(node({ states: ['enabled', 'visible'] }))).toBe(false);
    expect(isShownNode(node({ states: ['showing', 'visible'] }))).toBe(false);
    expect(isShownNode(node({ states: ['showing', 'visible', 'editable'] }))).toBe(true);
    expect(isShownNode(node({ states: ['showing', 'visible', 'expandable'] }))).toBe(true);
    expect(isShownNode(node({ states: ['showing', 'visible', 'checkable'] }))).toBe(true);
  });

  it('needs a name or a text, a positive size and a top-left corner on the screen', () => {
    expect(isShownNode(node({ name: '' }))).toBe(false);
    expect(isShownNode(node({ name: '', text: 'typed' }))).toBe(true);
    expect(isShownNode(node({ width: 0 }))).toBe(false);
    expect(isShownNode(node({ height: -1 }))).toBe(false);
    expect(isShownNode(node({ x: -5 }))).toBe(false);
    expect(isShownNode(node({ x: 1900 }), { width: 1920, height: 1080 })).toBe(true);
    expect(isShownNode(node({ x: 1920 }), { width: 1920, height: 1080 })).toBe(false);
    expect(isShownNode(node({ y: 2000 }), { width: 1920, height: 1080 })).toBe(false);
  });

  it('walks the forest in document order, keeping shown nodes below dropped containers', () => {
    const tree: AccessibilityNode[] = [
      node({
        role: 'application',
        name: 'mousepad',
        children: [
          node({
            role: 'frame',
            name: 'Untitled',
            children: [
              node({ role: 'menu', name: 'File' }),
              node({
                role: 'menu',
                name: 'Edit',
                children: [node({ role: 'menu-item', name: 'Undo', states: ['enabled'] })],
              }),
              node({ role: 'text', name: '', text: 'hello' }),
            ],
          }),
        ],
      }),
      node({ role: 'document-web', name: 'Page', children: [node({ role: 'link', name: 'More' })] }),
    ];
    expect(flattenTree(tree).map((n) => n.name || n.text)).toEqual([
      'mousepad',
      'Untitled',
      'File',
      'Edit',
      'Undo',
      'hello',
      'Page',
      'More',
    ]);
    expect(filterNodes(tree).map((n) => n.name || n.text)).toEqual(['File', 'Edit', 'hello', 'Page', 'More']);
  });
});
