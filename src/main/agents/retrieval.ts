// Retrieval context: documentation chunks placed in the llm agent's prompt.
//
// Where it comes from: a Markdown file beside the task file, `retrieval.md` (preferred) or `docs.md`, or a
// path given with the agent option `retrieval`. The file is cut into chunks at its headings (and long sections
// at blank lines); the chunks that share the most words with the instruction (weighted by rarity across the
// chunks) are kept, in document order, within a token budget (default 1,500, counted with cl100k).
import fs from 'node:fs';
import path from 'node:path';
import { getEncoding, type Tiktoken } from 'js-tiktoken';
import { isInside } from '../contained';

export const retrievalFileNames = ['retrieval.md', 'docs.md'];

export interface RetrievalOptions {
  /** Chunks to keep at most. Default 4. */
  topK?: number;
  /** Token budget of the kept chunks. Default 1,500. */
  maxTokens?: number;
}

export interface RetrievalContext {
  file: string;
  chunks: { heading: string; text: string; score: number }[];
  tokens: number;
}

/** The documentation file of a task folder, if there is one. */
export function findRetrievalFile(taskDir: string): string | undefined {
  for (const name of retrievalFileNames) {
    const file = path.join(taskDir, name);
    if (fs.existsSync(file) && isInside(taskDir, file)) return file;
  }
  return undefined;
}

const stop = new Set(
  'the and for with from that this into your you are was were has have had not but all any can its use using then than them they their there what when where which while will would should could been being each other only also more most such very just how out our over per via a an of to in on at by or is it be as if do so no up'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((w) => w.length > 2 && !stop.has(w));
}

function chunk(text: string, maxChars = 2_000): { heading: string; text: string }[] {
  const sections: { heading: string; text: string }[] = [];
  let heading = '';
  let body: string[] = [];
  const flush = () => {
    const t = body.join('\n').trim();
    if (t) sections.push({ heading, text: t });
    body = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^#{1,6}\s/.test(line)) {
      flush();
      heading = line.replace(/^#+\s*/, '').trim();
      body.push(line);
    } else body.push(line);
  }
  flush();
  const out: { heading: string; text: string }[] = [];
  for (const s of sections) {
    if (s.text.length <= maxChars) {
      out.push(s);
      continue;
    }
    let piece = '';
    for (const para of s.text.split(/\n\s*\n/)) {
      if (piece && piece.length + para.length > maxChars) {
        out.push({ heading: s.heading, text: piece.trim() });
        piece = '';
      }
      piece += para + '\n\n';
    }
    if (piece.trim()) out.push({ heading: s.heading, text: piece.trim() });
  }
  return out;
}

let encoder: Tiktoken | undefined;
function countTokens(text: string): number {
  encoder ??= getEncoding('cl100k_base');
  return encoder.encode(text).length;
}

/** Picks the documentation chunks most related to the instruction. */
export function retrieve(
  file: string,
  instruction: string,
  options: RetrievalOptions = {},
): RetrievalContext {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`retrieval file ${file}: cannot read (${(error as Error).message})`, { cause: error });
  }
  const chunks = chunk(text);
  const query = new Set(words(instruction));
  const docFreq = new Map<string, number>();
  const chunkWords = chunks.map((c) => new Set(words(c.heading + ' ' + c.text)));
  for (const set of chunkWords) for (const w of set) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  const scored = chunks.map((c, i) => {
    let score = 0;
    for (const w of query)
      if (chunkWords[i].has(w)) score += Math.log(1 + chunks.length / (docFreq.get(w) ?? 1));
    return { ...c, score, index: i };
  });
  const ranked = scored.filter((c) => c.score > 0).sort((a, b) => b.score - a.score || a.index - b.index);
  const topK = options.topK ?? 4;
  const budget = options.maxTokens ?? 1_500;
  const kept: typeof ranked = [];
  let tokens = 0;
  for (const c of ranked) {
    if (kept.length >= topK) break;
    const t = countTokens(c.text);
    if (tokens + t > budget) continue;
    kept.push(c);
    tokens += t;
  }
  kept.sort((a, b) => a.index - b.index);
  return { file, chunks: kept.map(({ heading, text: t, score }) => ({ heading, text: t, score })), tokens };
}

/** The retrieval context as prompt text, or undefined when nothing matched. */
export function retrievalText(context: RetrievalContext): string | undefined {
  if (!context.chunks.length) return undefined;
  return (
    `DOCUMENTATION\nThese excerpts of documentation (from ${path.basename(context.file)}) may help with the task:\n\n` +
    context.chunks.map((c) => c.text).join('\n\n---\n\n')
  );
}
