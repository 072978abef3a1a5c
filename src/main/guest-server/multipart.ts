// A small, bounded multipart/form-data reader for /setup/upload: the whole body is already read (and capped)
// by the caller; this splits it into named fields and file parts without copying the file data.

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export class MultipartError extends Error {}

const MAX_PARTS = 64;
const MAX_HEADER_BYTES = 8 * 1024;

/** The boundary of a `multipart/form-data; boundary=…` content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

function headerParam(header: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

/** A part's name, filename and content type from its header lines; a part without a form-data name is malformed. */
export function partHeaders(text: string): { name: string; filename?: string; contentType?: string } {
  let disposition = '';
  let contentType: string | undefined;
  for (const h of text.split('\r\n')) {
    const colon = h.indexOf(':');
    if (colon < 0) continue;
    const key = h.slice(0, colon).trim().toLowerCase();
    if (key === 'content-disposition') disposition = h.slice(colon + 1).trim();
    else if (key === 'content-type') contentType = h.slice(colon + 1).trim();
  }
  const name = headerParam(disposition, 'name');
  if (!/^form-data\b/i.test(disposition) || name === undefined)
    throw new MultipartError('a multipart part has no form-data name');
  return { name, filename: headerParam(disposition, 'filename'), contentType };
}

export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MultipartError('the body has no multipart boundary');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') return parts;
    if (body.subarray(pos, pos + 2).toString() !== '\r\n')
      throw new MultipartError('a multipart boundary is not followed by a line end');
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0 || headerEnd - pos > MAX_HEADER_BYTES)
      throw new MultipartError('a multipart part has no end of headers');
    const headers = body.subarray(pos, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw new MultipartError('a multipart part is not closed by the boundary');
    const { name, filename, contentType } = partHeaders(headers.join('\r\n'));
    parts.push({ name, filename, contentType, data: body.subarray(headerEnd + 4, next) });
    if (parts.length > MAX_PARTS) throw new MultipartError(`more than ${MAX_PARTS} multipart parts`);
    pos = next + 2;
  }
}
