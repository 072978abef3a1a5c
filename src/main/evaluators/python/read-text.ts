// A text file as Python's `open(path, 'r', encoding='utf-8').read()` gives it to OSWorld's metrics.
import { readBytes } from '../metrics/inputs';

/** A file's text as Python reads it: strict UTF-8 (a decoding error is the reason, as Python raises
 * UnicodeDecodeError), a BOM kept (so json.loads then refuses it), CRLF and lone CR read as LF (universal newlines). */
export async function readPythonText(path: unknown): Promise<{ text: string } | { error: string }> {
  const bytes = await readBytes(path);
  if (!bytes) return { error: `cannot read ${JSON.stringify(path)}` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { error: `${String(path)} is not UTF-8 (Python raises UnicodeDecodeError)` };
  }
  return { text: text.replace(/\r\n?/g, '\n') };
}
