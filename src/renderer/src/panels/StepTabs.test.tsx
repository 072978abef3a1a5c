// The replay's detail tabs as a person uses them: the registered tabs in order, clicking one, its body, its marks.
// The test itself runs in Node: a real HTTP server on 127.0.0.1 stands where `proctor serve` answers /files/….
// eslint-disable-next-line no-restricted-imports
import { createServer, type Server } from 'node:http';
// eslint-disable-next-line no-restricted-imports
import type { AddressInfo } from 'node:net';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engine, stepOf, trajectory } from '../test/fixtures';
import { stepPanels, type StepPanel } from '.';
import { StepTabs } from './StepTabs';

const [clicked, typed, failed] = trajectory().steps;

describe('the step tabs', () => {
  it('offers every registered panel as a tab, in the registry order, and shows the one the link names', () => {
    render(<StepTabs step={clicked} group={[clicked]} tab="timing" onTab={() => undefined} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(stepPanels.map((p) => p.title));
    expect(screen.getByRole('tab', { name: 'Tokens & timing' }).getAttribute('aria-selected')).toBe('true');
    const body = screen.getByTestId('tab-timing');
    expect(body.textContent).toContain('prompt tokens');
    expect(body.textContent).toContain('1.5');
  });

  it('names the chosen tab when one is clicked', () => {
    const onTab = vi.fn();
    render(<StepTabs step={typed} group={[typed]} tab="response" onTab={onTab} />);
    expect(screen.getByTestId('tab-response').textContent).toContain('Now I type.');
    fireEvent.click(screen.getByRole('tab', { name: 'Parsed actions' }));
    expect(onTab).toHaveBeenCalledWith('actions');
  });

  it("shows the model's words when the link names no tab or one that does not exist", () => {
    render(<StepTabs step={clicked} group={[clicked]} tab="no-such-tab" onTab={() => undefined} />);
    expect(screen.getByTestId('tab-response').textContent).toContain('I click the search box.');
  });

  it('marks the feedback tab of an entry that failed, and shows the error in it', () => {
    const { rerender } = render(
      <StepTabs step={clicked} group={[clicked]} tab="feedback" onTab={() => undefined} />,
    );
    expect(screen.getByRole('tab', { name: 'Feedback' })).toBeTruthy();
    expect(screen.getByTestId('tab-feedback').textContent).toBe('No errors or refusals at this step.');
    rerender(<StepTabs step={failed} group={[failed]} tab="feedback" onTab={() => undefined} />);
    expect(screen.getByRole('tab', { name: 'Feedback ⚠' })).toBeTruthy();
    expect(screen.getByTestId('tab-feedback').textContent).toBe('the window closed');
  });

  it('shows the parsed actions as JSON, and a foreign harness its raw action', () => {
    render(<StepTabs step={typed} group={[typed]} tab="actions" onTab={() => undefined} />);
    expect(JSON.parse(screen.getByTestId('tab-actions').textContent!)).toEqual([
      { type: 'write', text: 'hello' },
    ]);
    expect(screen.queryByTestId('raw-action')).toBeNull();
  });

  it('takes a new panel from the registry it is given, offered only where the panel says', () => {
    const notes: StepPanel = {
      id: 'notes',
      title: 'Notes',
      available: ({ step }) => step.step === 2,
      Panel: ({ step }) => <p>notes of step {step.step}</p>,
    };
    const panels = [...stepPanels, notes];
    const { rerender } = render(
      <StepTabs step={clicked} group={[clicked]} tab="notes" onTab={() => undefined} panels={panels} />,
    );
    expect(screen.queryByRole('tab', { name: 'Notes' })).toBeNull();
    expect(screen.getByTestId('tab-response')).toBeTruthy();
    rerender(<StepTabs step={typed} group={[typed]} tab="notes" onTab={() => undefined} panels={panels} />);
    expect(screen.getByRole('tab', { name: 'Notes' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('tab-notes').textContent).toBe('notes of step 2');
  });
});

describe('the accessibility tab', () => {
  let server: Server;
  let base = '';
  const fileUrl = engine().fileUrl;
  beforeAll(async () => {
    // The served root, as `proctor serve` answers /files/…: one accessibility table, and nothing else.
    server = createServer((req, res) => {
      if (req.url === '/files/run-1/a11y_1.tsv') res.end('index\ttag\tname\n1\tbutton\tSearch\n');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    engine().fileUrl = (p) => `${base}/files/${p}`;
  });
  afterAll(() => {
    engine().fileUrl = fileUrl;
    server.close();
  });

  it('loads the table the entry kept, and says so when it cannot', async () => {
    const withTable = stepOf(1, { a11yTable: 'run-1/a11y_1.tsv' });
    const { rerender } = render(
      <StepTabs step={withTable} group={[withTable]} tab="a11y" onTab={() => undefined} />,
    );
    expect(screen.getByTestId('tab-a11y').textContent).toBe('Loading…');
    await waitFor(() =>
      expect(screen.getByTestId('tab-a11y').textContent).toBe('index\ttag\tname\n1\tbutton\tSearch\n'),
    );
    const missing = stepOf(2, { a11yTable: 'run-1/a11y_2.tsv' });
    rerender(<StepTabs step={missing} group={[missing]} tab="a11y" onTab={() => undefined} />);
    expect(await screen.findByText('cannot load (404)')).toBeTruthy();
    rerender(<StepTabs step={clicked} group={[clicked]} tab="a11y" onTab={() => undefined} />);
    expect(screen.getByTestId('tab-a11y').textContent).toBe('No accessibility table at this step.');
  });
});
