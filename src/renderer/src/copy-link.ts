// `y` copies the link of what is on screen (every view and step is a hash route, so the URL is the deep link)
// and says so in a toast. Ignored while typing in a field.
import { useEffect } from 'react';
import { toast } from './components/Toast';

/** Copies text to the clipboard: the async Clipboard API where allowed, else a hidden text area. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function useCopyLinkKey(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'y' || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      if (
        t instanceof HTMLInputElement ||
        t instanceof HTMLTextAreaElement ||
        t instanceof HTMLSelectElement ||
        (t instanceof HTMLElement && t.isContentEditable)
      )
        return;
      e.preventDefault();
      const href = location.href;
      void copyText(href).then((ok) => toast(ok ? `Link copied: ${href}` : `Copy this link: ${href}`));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
