// CSV text → records, as the robust compare_csv and the native profile's pandas reading both parse it: a field
// that starts with `"` is quoted (`""` inside is one quote; text after the closing quote makes the field read as
// it stands), a quote elsewhere is an ordinary character, records end at CRLF, LF or CR, rows may be ragged,
// empty lines are skipped and a leading byte-order mark is dropped. The last few results are kept, so the second
// opinion does not parse a file again.

const recent = new Map<string, string[][] | string>();
const keep = 4;

function parse(text: string): string[][] | string {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  const endRecord = () => {
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  while (i <= n) {
    // one field starts at i
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return `Quote Not Closed: the quoted field starting on line ${line} never ends`;
        value += text.slice(j, q);
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      const c = text[j];
      if (j < n && c !== ',' && c !== '\n' && c !== '\r') {
        // text after the closing quote: the field is read as it stands, quotes and all
        let k = j;
        while (k < n && text[k] !== ',' && text[k] !== '\n' && text[k] !== '\r') k++;
        record.push(text.slice(i, k));
        i = k;
      } else {
        line += (value.match(/\r\n|\r|\n/g) ?? []).length;
        record.push(value);
        i = j;
      }
    } else {
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
      record.push(text.slice(i, j));
      i = j;
    }
    if (i >= n) {
      endRecord();
      break;
    }
    const c = text[i];
    if (c === ',') {
      i++;
      continue;
    }
    i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    line++;
    endRecord();
    if (i >= n) break;
  }
  return records;
}

/** The records of `text`, or why it is not CSV. The result is shared: callers must not change it. */
export function csvRecords(text: string): string[][] | string {
  const key = text.replace(/^\uFEFF/, '');
  const hit = recent.get(key);
  if (hit !== undefined) return hit;
  const out = parse(key);
  recent.set(key, out);
  if (recent.size > keep) recent.delete(recent.keys().next().value as string);
  return out;
}
