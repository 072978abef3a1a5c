// Files of a downloads folder stand for URLs by downloads.json or by name; Drive links are named by their id.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { downloadName, downloadedFile, fetchDownload } from './downloads';

const dir = mkdtempSync(join(tmpdir(), 'proctor-downloads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a downloads folder', () => {
  it('names a plain URL by its last path segment', () => {
    expect(downloadName('https://example.org/files/My%20Book.xlsx?raw=1')).toBe('My Book.xlsx');
  });

  it('names Google Drive links by their id, so two tasks never get the same file', () => {
    const a = 'https://drive.google.com/uc?id=1AbC-d_9&export=download';
    const b = 'https://drive.usercontent.google.com/download?id=1XyZ&export=download&authuser=0';
    expect(downloadName(a)).toBe('1AbC-d_9');
    expect(downloadName(b)).toBe('1XyZ');
    expect(downloadName('https://drive.google.com/uc?id=../../etc')).toBe('uc');
  });

  it('finds a Drive file saved under its id, and does not take a file called uc for every link', async () => {
    writeFileSync(join(dir, 'uc'), 'wrong');
    writeFileSync(join(dir, '1AbC'), 'book');
    expect(await downloadedFile(dir, 'https://drive.google.com/uc?id=1AbC&export=download')).toBe(
      join(dir, '1AbC'),
    );
    expect(
      await downloadedFile(dir, 'https://drive.google.com/uc?id=2Other&export=download'),
    ).toBeUndefined();
    await expect(fetchDownload('https://drive.google.com/uc?id=2Other', { downloads: dir })).rejects.toThrow(
      /save it there as 2Other, or map the URL/,
    );
  });
});
