// What an agent sees at one step, of the four observation types, through the Environment only. The trees come
// from env.accessibilityTree() (each kind collects its own, e.g. env/local/accessibility); here they are
// filtered, linearised and marked.
import { OBSERVATION_TYPES } from '../../shared/spaces';
import {
  MissingCapabilityError,
  type AccessibilityNode,
  type Environment,
  type Screenshot,
} from '../env/environment';
import { filterNodes } from './filter';
import { lineariseTree, warmTokenizer } from './linearise';
import type { Observation, ObservationType } from './observation';
import { decodeShot, drawSetOfMark, markBindings, warmSetOfMark, type DecodedShot } from './set-of-mark';

export type { Mark, Observation, ObservationType } from './observation';
export { filterNodes, flattenTree, isShownNode, isShownRole } from './filter';
export {
  countTokens,
  lineariseTree,
  TABLE_HEADER,
  MARKED_TABLE_HEADER,
  CUT_MARK,
  type LinearisedTree,
} from './linearise';
export { drawSetOfMark, markBindings, MARK_COLOURS, type SetOfMark } from './set-of-mark';
export { OBSERVATION_TYPES };

/**
 * Does the one-time work of the first observation ahead (the tokenizer, the marks' digits), for a screen `height`
 * pixels high: call it while a task's setup runs. Errors are left to the observation that needs the part.
 */
export async function warmObservation(height: number): Promise<void> {
  await warmSetOfMark(height).catch(() => undefined);
  try {
    warmTokenizer();
  } catch {
    /* the first observation reports it */
  }
}

export interface ObserveOptions {
  /** Tokens the accessibility table may take. Default 5000. */
  tokenBudget?: number;
}

/** Observes the environment: the screenshot and/or the filtered, linearised accessibility tree, or SoM. */
export async function observe(
  env: Environment,
  type: ObservationType,
  opts: ObserveOptions = {},
): Promise<Observation> {
  if (!OBSERVATION_TYPES.includes(type)) {
    throw new Error(`unknown observation type '${type}': use one of ${OBSERVATION_TYPES.join(', ')}`);
  }
  const wantShot = type !== 'a11y_tree';
  const wantTree = type !== 'screenshot';
  if (wantShot && !env.capabilities.has('screenshot'))
    throw new MissingCapabilityError('screenshot', env.kind);
  if (wantTree && !env.capabilities.has('accessibility'))
    throw new MissingCapabilityError('accessibility', env.kind);

  // for SoM, the screenshot is decoded for the marks while the tree is still being collected
  let decoded: Promise<DecodedShot> | undefined;
  const [screenshot, tree, screen] = await Promise.all([
    wantShot
      ? env.screenshot().then((shot) => {
          if (type === 'som') (decoded = decodeShot(shot)).catch(() => undefined); // drawSetOfMark awaits it
          return shot;
        })
      : Promise.resolve<Screenshot | undefined>(undefined),
    wantTree ? env.accessibilityTree() : Promise.resolve<AccessibilityNode[]>([]),
    wantTree ? env.screen() : Promise.resolve(undefined),
  ]);
  if (!wantTree) return { type, screenshot, bindings: {} };

  const shown = filterNodes(tree, screen);
  if (type === 'som') {
    const som = await drawSetOfMark(screenshot!, shown, decoded);
    const { table } = lineariseTree(som.nodes, { tokenBudget: opts.tokenBudget, withMarks: true });
    return {
      type,
      screenshot,
      a11yTable: table,
      a11yNodes: som.nodes,
      som: { image: som.image, marks: som.marks },
      bindings: markBindings(som.marks),
    };
  }
  const { table, kept } = lineariseTree(shown, { tokenBudget: opts.tokenBudget });
  return { type, ...(screenshot ? { screenshot } : {}), a11yTable: table, a11yNodes: kept, bindings: {} };
}
