import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRetrievalFile, retrievalText, retrieve } from './retrieval';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-retrieval-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const docs = `# Airflow guide

## Scheduling a DAG
Set schedule_interval on the DAG to a cron expression such as "0 18 * * *" to run it at 6 p.m.

## Connections
Create a connection in Admin → Connections with a connection id, host and password.

## Unrelated
Bananas are yellow.
`;

describe('retrieval context', () => {
  it('prefers retrieval.md over docs.md beside the task', () => {
    expect(findRetrievalFile(dir)).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'docs.md'), docs);
    expect(findRetrievalFile(dir)).toBe(path.join(dir, 'docs.md'));
    fs.writeFileSync(path.join(dir, 'retrieval.md'), docs);
    expect(findRetrievalFile(dir)).toBe(path.join(dir, 'retrieval.md'));
  });

  it('keeps the chunks that share words with the instruction, within the budget', () => {
    const file = path.join(dir, 'docs.md');
    const context = retrieve(file, 'Schedule the DAG to run at 6 p.m. with a cron schedule_interval', {
      topK: 1,
    });
    expect(context.chunks).toHaveLength(1);
    expect(context.chunks[0].heading).toBe('Scheduling a DAG');
    expect(context.tokens).toBeGreaterThan(0);
    const text = retrievalText(context)!;
    expect(text).toContain('schedule_interval');
    expect(text).not.toContain('Bananas');
    expect(retrieve(file, 'Schedule the DAG', { maxTokens: 3 }).chunks).toHaveLength(0);
  });

  it('names the file it cannot read', () => {
    expect(() => retrieve(path.join(dir, 'missing.md'), 'x')).toThrow(/missing\.md: cannot read/);
  });
});
