// The "Parsed actions" tab: the typed actions performed, and a foreign harness's raw action as it wrote it.
import { isForeign } from '../components/StepEntry';
import type { StepPanel } from './types';

export const parsedActionsPanel: StepPanel = {
  id: 'actions',
  title: 'Parsed actions',
  Panel: ({ step }) => (
    <>
      {step.rawAction !== undefined && isForeign(step) && (
        <pre data-testid="raw-action">
          {typeof step.rawAction === 'string' ? step.rawAction : JSON.stringify(step.rawAction, null, 2)}
        </pre>
      )}
      <pre>{JSON.stringify(step.actions, null, 2)}</pre>
    </>
  ),
};
