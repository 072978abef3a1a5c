// A streaming multipart/form-data reader for /setup/upload: file parts go to files on disk as they arrive (an
// upload is never whole in memory), fields stay in memory and are small; the body, each field, the headers and
// the part count are capped. Malformed bodies are MultipartError (400), caps MultipartTooLarge (413).
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { MultipartError, partHeaders } from './multipart';

export class MultipartTooLarge extends MultipartError {}

export interface StreamedPart {
  name: string;
  filename?: string;
  contentType?: string;
  /** A field's value (parts without a filename). */
  data?: Buffer;
  /** Where a file part was written (parts with a filename). */
  file?: string;
  size: number;
}

export interface StreamLimits {
  bodyBytes: number;
  fieldBytes: number;
  parts: number;
  headerBytes: number;
}

export const STREAM_LIMITS: StreamLimits = {
  bodyBytes: 512 * 1024 * 1024,
  fieldBytes: 64 * 1024,
  parts: 64,
  headerBytes: 8 * 1024,
};

type State = 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done';

/**
 * Reads `body` (e.g. an IncomingMessage) as multipart with `boundary`, writing file parts into `fileDir` (which
 * must exist). On any error the files written so far are removed.
 */
export async function streamMultipart(
  body: AsyncIterable<Buffer>,
  boundary: string,
  fileDir: string,
  limits: StreamLimits = STREAM_LIMITS,
): Promise<StreamedPart[]> {
  const delimiter = Buffer.from(`--${boundary}`);
  const partEnd = Buffer.from(`\r\n--${boundary}`);
  const parts: StreamedPart[] = [];
  let state = 'preamble' as State; // changed inside advance()
  let buf: Buffer = Buffer.alloc(0);
  let total = 0;
  let part: StreamedPart | undefined;
  let fields: Buffer[] = [];
  let sink: WriteStream | undefined;

  const emit = async (data: Buffer): Promise<void> => {
    if (!part || !data.length) return;
    part.size += data.length;
    if (sink) {
      if (!sink.write(data)) await once(sink, 'drain');
      return;
    }
    if (part.size > limits.fieldBytes)
      throw new MultipartTooLarge(`the field '${part.name}' is larger than ${limits.fieldBytes} bytes`);
    fields.push(data);
  };
  const finishPart = async (): Promise<void> => {
    if (!part) return;
    if (sink) {
      const s = sink;
      sink = undefined;
      await new Promise<void>((resolve, reject) => s.end((e?: Error | null) => (e ? reject(e) : resolve())));
    } else part.data = Buffer.concat(fields);
    fields = [];
    parts.push(part);
    part = undefined;
  };
  const startPart = (headerText: string): void => {
    const h = partHeaders(headerText);
    if (parts.length + 1 > limits.parts)
      throw new MultipartError(`more than ${limits.parts} multipart parts`);
    part = {
      name: h.name,
      ...(h.filename !== undefined ? { filename: h.filename } : {}),
      ...(h.contentType ? { contentType: h.contentType } : {}),
      size: 0,
    };
    if (h.filename !== undefined) {
      part.file = join(fileDir, `part-${parts.length + 1}`);
      sink = createWriteStream(part.file, { flags: 'wx', mode: 0o600 });
    }
  };

  /** Moves through `buf` as far as it goes; what may still be the start of a boundary stays in it. */
  const advance = async (): Promise<void> => {
    for (;;) {
      if (state === 'preamble') {
        const i = buf.indexOf(delimiter);
        if (i < 0) {
          buf = buf.subarray(Math.max(0, buf.length - delimiter.length + 1));
          return;
        }
        buf = buf.subarray(i + delimiter.length);
        state = 'afterDelimiter';
      } else if (state === 'afterDelimiter') {
        if (buf.length < 2) return;
        const two = buf.subarray(0, 2).toString('latin1');
        if (two === '--') {
          state = 'done';
          return;
        }
        if (two !== '\r\n') throw new MultipartError('a multipart boundary is not followed by a line end');
        buf = buf.subarray(2);
        state = 'headers';
      } else if (state === 'headers') {
        const i = buf.indexOf('\r\n\r\n');
        if (i < 0 || i > limits.headerBytes) {
          if (buf.length > limits.headerBytes)
            throw new MultipartError('a multipart part has no end of headers');
          return;
        }
        startPart(buf.subarray(0, i).toString('utf8'));
        buf = buf.subarray(i + 4);
        state = 'body';
      } else if (state === 'body') {
        const i = buf.indexOf(partEnd);
        if (i < 0) {
          const safe = buf.length - partEnd.length + 1;
          if (safe > 0) {
            await emit(buf.subarray(0, safe));
            buf = buf.subarray(safe);
          }
          return;
        }
        await emit(buf.subarray(0, i));
        await finishPart();
        buf = buf.subarray(i + partEnd.length);
        state = 'afterDelimiter';
      } else return;
    }
  };

  try {
    for await (const chunk of body) {
      total += chunk.length;
      if (total > limits.bodyBytes)
        throw new MultipartTooLarge(`the request body is larger than ${limits.bodyBytes} bytes`);
      if (state === 'done') continue; // the epilogue is read and dropped
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      await advance();
    }
    if (state !== 'done')
      throw new MultipartError(
        state === 'preamble'
          ? 'the body has no multipart boundary'
          : 'a multipart part is not closed by the boundary',
      );
    return parts;
  } catch (e) {
    // The file may not be open yet when the error comes: wait for the stream to close before removing it, or the
    // open lands after the removal and leaves the file behind.
    if (sink) await closeStream(sink);
    await Promise.all(
      [...parts, ...(part ? [part] : [])].flatMap((p) => (p.file ? [rm(p.file, { force: true })] : [])),
    );
    throw e;
  }
}

function closeStream(s: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (s.closed) return resolve();
    s.once('close', () => resolve());
    s.destroy();
  });
}
