// The names a run is configured by, said once: the observation types an agent can be shown and the action
// spaces it can answer in. The CLI, the API schemas, the manifest types and the UI all read these lists.

export const OBSERVATION_TYPES = ['screenshot', 'a11y_tree', 'screenshot_a11y_tree', 'som'] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export const ACTION_SPACES = ['pyautogui', 'computer_13'] as const;
export type ActionSpace = (typeof ACTION_SPACES)[number];

export function isObservationType(v: unknown): v is ObservationType {
  return (OBSERVATION_TYPES as readonly unknown[]).includes(v);
}

export function isActionSpace(v: unknown): v is ActionSpace {
  return (ACTION_SPACES as readonly unknown[]).includes(v);
}
