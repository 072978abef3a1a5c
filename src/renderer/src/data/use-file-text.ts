// The text of a file below the served root (an accessibility table, a log), cut to `max` characters; undefined
// while it loads. A failed load reads as its reason.
import { useEffect, useState } from 'react';
import { fileUrl } from './engine';

export function useFileText(path: string | undefined, max: number): string | undefined {
  const [text, setText] = useState<{ path: string; text: string }>();
  useEffect(() => {
    if (!path) return;
    let live = true;
    fetch(fileUrl(path))
      .then((r) => (r.ok ? r.text() : `cannot load (${r.status})`))
      .then(
        (t) => live && setText({ path, text: t.slice(0, max) }),
        (e: Error) => live && setText({ path, text: e.message }),
      );
    return () => {
      live = false;
    };
  }, [path, max]);
  return text && text.path === path ? text.text : undefined;
}
