// Screen sizes: the one default for every way of starting a run (benchmark tasks assume a 1920×1080 VM), and the
// `WIDTHxHEIGHT` text form used by flags, environment specs and task-set declarations.

export interface ScreenSize {
  width: number;
  height: number;
}

/** The screen every run uses unless its command, environment spec or task set says otherwise. */
export const DEFAULT_SCREEN: Readonly<ScreenSize> = Object.freeze({ width: 1920, height: 1080 });

/** Smallest and largest screen a run may ask for. */
export const MIN_SCREEN: Readonly<ScreenSize> = Object.freeze({ width: 320, height: 200 });
export const MAX_SCREEN: Readonly<ScreenSize> = Object.freeze({ width: 8192, height: 8192 });

/** `1280x800` (or `1280×800`) as a size; undefined when the text is no size or out of range. */
export function parseScreen(text: string): ScreenSize | undefined {
  const m = /^\s*(\d{3,5})\s*[x×]\s*(\d{3,5})\s*$/.exec(text);
  if (!m) return undefined;
  const size = { width: Number(m[1]), height: Number(m[2]) };
  return isScreenSize(size) ? size : undefined;
}

/** Whether `v` is a `{width, height}` of whole pixels within range. */
export function isScreenSize(v: unknown): v is ScreenSize {
  if (typeof v !== 'object' || v === null) return false;
  const { width, height } = v as Record<string, unknown>;
  return (
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    (width as number) >= MIN_SCREEN.width &&
    (height as number) >= MIN_SCREEN.height &&
    (width as number) <= MAX_SCREEN.width &&
    (height as number) <= MAX_SCREEN.height
  );
}

/** `1920×1080`. */
export function formatScreen(s: ScreenSize): string {
  return `${s.width}×${s.height}`;
}

export function sameScreen(a: ScreenSize | undefined, b: ScreenSize | undefined): boolean {
  return !!a && !!b && a.width === b.width && a.height === b.height;
}
