// A small message at the bottom of the window that goes away by itself ("Link copied", …). One at a time.
import { useEffect, useState } from 'react';

let show: ((text: string) => void) | undefined;

/** Shows `text` in the toast for a moment. */
export function toast(text: string): void {
  show?.(text);
}

export function Toaster() {
  const [text, setText] = useState<string>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    show = (t) => {
      setText(t);
      clearTimeout(timer);
      timer = setTimeout(() => setText(undefined), 2500);
    };
    return () => {
      show = undefined;
      clearTimeout(timer);
    };
  }, []);
  return text ? (
    <div className="toast" role="status" data-testid="toast">
      {text}
    </div>
  ) : null;
}
