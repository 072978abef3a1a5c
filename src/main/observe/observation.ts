// What an agent is shown at one step.
import type { AccessibilityNode, Screenshot } from '../env/environment';
import type { ObservationType } from '../../shared/spaces';

export type { ObservationType } from '../../shared/spaces';

/** A Set-of-Mark box: number `id` drawn on the screenshot around an accessibility element (screen pixels). */
export interface Mark {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** `tag\tname` of the element, for people. */
  label: string;
}

export interface Observation {
  type: ObservationType;
  /** The screenshot as captured (full resolution, `toScreen` = 1 unless resized). */
  screenshot?: Screenshot;
  /** The linearised, filtered accessibility table (tab-separated; with SoM, the first column is the mark id). */
  a11yTable?: string;
  /** The nodes behind the table's rows (with SoM, every marked node, row i = mark i+1), for stores and UIs. */
  a11yNodes?: AccessibilityNode[];
  /** SoM-tagged screenshot and its marks (observation type `som`). */
  som?: { image: Screenshot; marks: Mark[] };
  /** Names the action parser accepts as coordinates: `tag_3`, `index_3` → centre of mark 3 (screen pixels). */
  bindings: Record<string, { x: number; y: number }>;
}
