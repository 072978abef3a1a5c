import { describe, expect, it } from 'vitest';
import type { AccessibilityNode } from '../env/environment';
import { countTokens, CUT_MARK, lineariseTree, MARKED_TABLE_HEADER, TABLE_HEADER } from './linearise';

const node = (i: number, over: Partial<AccessibilityNode> = {}): AccessibilityNode => ({
  role: 'push-button',
  name: `Button number ${i}`,
  x: 10 * i,
  y: 20 + i,
  width: 80,
  height: 24,
  states: ['enabled', 'showing', 'visible'],
  ...over,
});

describe('lineariseTree', () => {
  it('writes the OSWorld header and one tab-separated row per node', () => {
    const { table, kept, truncated } = lineariseTree([
      node(1, { className: 'GtkButton', description: 'Saves it' }),
      node(2, { role: 'entry', name: 'Query', text: 'select 1' }),
    ]);
    expect(table.split('\n')).toEqual([
      TABLE_HEADER,
      'push-button\tButton number 1\t""\tGtkButton\tSaves it\t(10, 21)\t(80, 24)',
      'entry\tQuery\tselect 1\t\t\t(20, 22)\t(80, 24)',
    ]);
    expect(kept).toHaveLength(2);
    expect(truncated).toBe(false);
  });

  it('keeps each row on one line and quotes text holding double quotes', () => {
    const { table } = lineariseTree([
      node(1, { role: 'text', name: '', text: 'line one\nsaid "hi"\tthere' }),
    ]);
    const rows = table.split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1].split('\t')).toHaveLength(7);
    expect(rows[1].split('\t')[2]).toBe('"line one\\nsaid ""hi"" there"');
  });

  it('numbers rows from 1 in a leading index column with marks', () => {
    const { table } = lineariseTree([node(1), node(2), node(3)], { withMarks: true });
    const rows = table.split('\n');
    expect(rows[0]).toBe(MARKED_TABLE_HEADER);
    expect(rows.slice(1).map((r) => r.split('\t')[0])).toEqual(['1', '2', '3']);
    expect(rows[3].split('\t')[2]).toBe('Button number 3');
  });

  it('cuts whole rows to the token budget counted with cl100k_base, and says so', () => {
    const nodes = Array.from({ length: 400 }, (_, i) => node(i + 1));
    const full = lineariseTree(nodes, { tokenBudget: 1_000_000 });
    expect(full.truncated).toBe(false);
    const fullTokens = countTokens(full.table);
    expect(fullTokens).toBeGreaterThan(5000);

    for (const budget of [300, 1000, 5000]) {
      const cut = lineariseTree(nodes, { tokenBudget: budget });
      expect(cut.truncated).toBe(true);
      expect(countTokens(cut.table)).toBeLessThanOrEqual(budget);
      // nearly all of the budget is used: one more row would not have fit
      const rowTokens = fullTokens / 400;
      expect(countTokens(cut.table)).toBeGreaterThan(budget - 3 * rowTokens);
      const lines = cut.table.split('\n');
      expect(lines.at(-1)).toBe(CUT_MARK);
      expect(lines.length - 2).toBe(cut.kept.length);
      expect(cut.kept).toEqual(nodes.slice(0, cut.kept.length));
    }
    // the default budget is 5000 tokens
    expect(lineariseTree(nodes).kept.length).toBe(lineariseTree(nodes, { tokenBudget: 5000 }).kept.length);
  });

  it('does not add the cut mark when everything fits exactly', () => {
    const nodes = [node(1), node(2)];
    const exact = countTokens(lineariseTree(nodes).table);
    const r = lineariseTree(nodes, { tokenBudget: exact });
    expect(r.truncated).toBe(false);
    expect(r.kept).toHaveLength(2);
  });

  it('counts special-token text from untrusted pages as plain text', () => {
    const r = lineariseTree([node(1, { name: '<|endoftext|> and <|im_start|>' })]);
    expect(r.table).toContain('<|endoftext|>');
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('caps a huge cell so one document cannot eat the budget', () => {
    const r = lineariseTree([node(1, { role: 'text', text: 'x'.repeat(50_000) }), node(2)], {
      maxCellChars: 200,
    });
    expect(r.kept).toHaveLength(2);
    expect(r.table.split('\n')[1].split('\t')[2]).toBe(`${'x'.repeat(200)}…`);
  });
});
