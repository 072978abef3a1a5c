// A setup step that could not be carried out, naming the task, the step (config or postconfig, its index, its
// func) and its place in the task file.

/** Where a step sits, from its JSON pointer: `/config/2` → config step 2; `/evaluator/postconfig/1` → postconfig step 1. */
export function stepPlace(pointer: string): { phase?: 'config' | 'postconfig'; index?: number } {
  const m = /^\/(?:config|evaluator\/postconfig)\/(\d+)$/.exec(pointer);
  if (!m) return {};
  return { phase: pointer.startsWith('/config/') ? 'config' : 'postconfig', index: Number(m[1]) };
}

export class SetupError extends Error {
  readonly phase?: 'config' | 'postconfig';
  readonly index?: number;
  constructor(
    /** JSON pointer of the step inside the task file, e.g. `/config/2`. */
    readonly pointer: string,
    readonly func: string,
    readonly reason: string,
    options?: { cause?: unknown; task?: string },
  ) {
    const { phase, index } = stepPlace(pointer);
    const step = phase ? `${phase} step ${index} (${func}, ${pointer})` : `setup step ${pointer} (${func})`;
    super(`${options?.task ? `task ${options.task}: ` : ''}${step}: ${reason}`, options);
    this.name = 'SetupError';
    this.phase = phase;
    this.index = index;
  }
}

/** A func's own complaint about its arguments or its work; runSetupSteps turns it into a SetupError. */
export class SetupStepFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SetupStepFailure';
  }
}
