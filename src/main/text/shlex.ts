// Splits a command string into words the way a POSIX shell (and Python's shlex.split) would, without running a
// shell: single and double quotes, backslash escapes, no expansion. Unbalanced quotes are an error.

export class ShlexError extends Error {}

export function shlexSplit(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new ShlexError(`no closing quotation (the ' at character ${i + 1})`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new ShlexError(`no closing quotation (the " at character ${i + 1})`);
        const d = text[j];
        if (d === '"') break;
        if (d === '\\' && j + 1 < text.length && '\\"$`\n'.includes(text[j + 1])) {
          if (text[j + 1] !== '\n') word += text[j + 1];
          j += 2;
          continue;
        }
        word += d;
        j++;
      }
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new ShlexError('no escaped character after the final backslash');
      if (text[i + 1] !== '\n') {
        word += text[i + 1];
        inWord = true;
      }
      i += 2;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
