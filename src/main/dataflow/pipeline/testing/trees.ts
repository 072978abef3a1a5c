// Accessibility trees as LibreOffice gives them over AT-SPI (roles, names, texts and boxes copied from a Writer,
// a Calc and an Impress window read on the sandbox display), for the pipeline's tests without a display.
import type { AccessibilityNode } from '../../../env/environment';

const SHOWN = ['enabled', 'sensitive', 'showing', 'visible', 'focusable'];

export function node(
  role: string,
  name: string,
  box: [number, number, number, number],
  extra: Partial<AccessibilityNode> = {},
): AccessibilityNode {
  const [x, y, width, height] = box;
  return { role, name, x, y, width, height, states: SHOWN, ...extra };
}

/** A Writer window: menus, toolbar buttons, the Font Name box (a nameless text in a named panel), the memo's paragraphs. */
export function writerTree(): AccessibilityNode[] {
  const para = (text: string, y: number) =>
    node('paragraph', '', [207, y, 793, 20], { text, states: [...SHOWN, 'editable'] });
  return [
    node('frame', 'memo.odt - LibreOffice Writer', [0, 0, 1280, 800], {
      children: [
        node('menu', 'File', [0, 19, 39, 25]),
        node('menu', 'Format', [181, 19, 62, 25]),
        node('tool-bar', 'Formatting', [0, 83, 1280, 39], {
          children: [
            node('panel', 'Font Name', [267, 85, 210, 34], {
              children: [
                node('text', '', [267, 85, 171, 34], {
                  text: 'Liberation Serif',
                  states: [...SHOWN, 'editable'],
                }),
              ],
            }),
            node('toggle-button', 'Bold', [591, 85, 33, 35]),
            node('toggle-button', 'Italic', [624, 85, 33, 35]),
            node('push-button', 'Underline', [657, 85, 44, 35]),
            node('push-button', 'Hidden', [700, 85, 44, 35], { states: ['enabled', 'visible'] }),
          ],
        }),
        node('document-text', 'memo - LibreOffice Document', [0, 147, 1207, 631], {
          states: [...SHOWN, 'editable'],
          children: [
            node('heading', '', [207, 242, 793, 44], { text: 'Team memo', states: [...SHOWN, 'editable'] }),
            para('This is a line of text to edit.', 286),
            para('The meeting moves to Thursday at ten.', 312),
          ],
        }),
      ],
    }),
  ];
}

/** A Calc window: the Bold button, the sales sheet's visible cells named by address with their text. */
export function calcTree(): AccessibilityNode[] {
  const rows = [
    ['Region', 'Q1', 'Q2'],
    ['North', '120', '135'],
    ['South', '98', '110'],
  ];
  const cells = rows.flatMap((r, i) =>
    r.map((text, j) =>
      node('table-cell', `${'ABC'[j]}${i + 1}`, [41 + 126 * j, 182 + 20 * i, 126, 20], { text }),
    ),
  );
  return [
    node('frame', 'sales.xlsx - LibreOffice Calc', [0, 0, 1280, 800], {
      children: [
        node('toggle-button', 'Bold', [328, 85, 33, 35]),
        node(
          'document-spreadsheet',
          'file:///home/user/sales.xlsx - LibreOffice Spreadsheets',
          [41, 182, 1166, 559],
          {
            children: [node('table', 'Sheet Sales', [41, 182, 1166, 559], { children: cells })],
          },
        ),
      ],
    }),
  ];
}

/** An Impress window on the review deck: the Slide menu, the slide's text boxes read as paragraphs. */
export function impressTree(): AccessibilityNode[] {
  const para = (text: string, y: number) =>
    node('paragraph', text, [255, y, 560, 30], { text, states: [...SHOWN, 'editable'] });
  return [
    node('frame', 'review.odp - LibreOffice Impress', [0, 0, 1280, 800], {
      children: [
        node('menu', 'Slide', [287, 19, 45, 25]),
        node('document-presentation', 'review - LibreOffice Presentation', [192, 132, 684, 627], {
          children: [
            para('Quarterly review', 300),
            para('Sales grew in every region', 400),
            para('Costs stayed flat', 430),
            para('Hiring starts in May', 460),
          ],
        }),
      ],
    }),
  ];
}
