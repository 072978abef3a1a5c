// Request bodies (read with a size cap) and replies for the guest server. Handlers throw HttpError to answer
// with a status; the body shape of an error follows the endpoint (JSON or text), as OSWorld's server does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { multipartBoundary, parseMultipart, MultipartError, type MultipartPart } from './multipart';

export const LIMITS = Object.freeze({
  jsonBytes: 1024 * 1024,
  formBytes: 1024 * 1024,
  uploadBytes: 512 * 1024 * 1024,
});

/** An answer other than success: `body` is sent as JSON when it is an object, else as text. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string | Record<string, unknown>,
  ) {
    super(typeof body === 'string' ? body : String(body.message ?? body.error ?? JSON.stringify(body)));
  }
}

export function readBody(req: IncomingMessage, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) {
      req.resume();
      return reject(
        new HttpError(413, { status: 'error', message: `the request body is larger than ${cap} bytes` }),
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > cap) {
        failed = true;
        chunks.length = 0;
        reject(
          new HttpError(413, { status: 'error', message: `the request body is larger than ${cap} bytes` }),
        );
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => failed || resolve(Buffer.concat(chunks)));
    req.on('error', (e) => failed || reject(e));
  });
}

/** The request's JSON object (an empty body is `{}`); 400 when it is not a JSON object. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(req, LIMITS.jsonBytes);
  if (body.length === 0) return {};
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new HttpError(400, {
      status: 'error',
      message: `the request body is not JSON: ${(e as Error).message}`,
    });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new HttpError(400, { status: 'error', message: 'the request body must be a JSON object' });
  return v as Record<string, unknown>;
}

/** Form fields of an urlencoded or multipart body (file parts left out); JSON bodies are read as fields too. */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const type = req.headers['content-type'] ?? '';
  if (multipartBoundary(type)) {
    const fields: Record<string, string> = {};
    for (const p of await readMultipart(req, LIMITS.formBytes))
      if (p.filename === undefined) fields[p.name] = p.data.toString('utf8');
    return fields;
  }
  const body = (await readBody(req, LIMITS.formBytes)).toString('utf8');
  if (/^application\/json\b/i.test(type)) {
    try {
      const v = JSON.parse(body) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<
          string,
          string
        >;
      }
    } catch {
      /* fall through: no fields */
    }
    return {};
  }
  return Object.fromEntries(new URLSearchParams(body));
}

export async function readMultipart(
  req: IncomingMessage,
  cap = LIMITS.uploadBytes,
): Promise<MultipartPart[]> {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (!boundary) throw new HttpError(400, 'the request is not multipart/form-data');
  const body = await readBody(req, cap);
  try {
    return parseMultipart(body, boundary);
  } catch (e) {
    if (e instanceof MultipartError) throw new HttpError(400, `malformed multipart body: ${e.message}`);
    throw e;
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(text);
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

export function sendFile(
  res: ServerResponse,
  data: Buffer,
  contentType: string,
  attachmentName?: string,
): void {
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'content-length': data.length,
  };
  if (attachmentName)
    headers['content-disposition'] = `attachment; filename="${attachmentName.replace(/["\\\r\n]/g, '_')}"`;
  res.writeHead(200, headers);
  res.end(data);
}

/** A string field of a JSON body or form, or undefined. */
export function stringField(o: Record<string, unknown>, name: string): string | undefined {
  const v = o[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
