// The "Accessibility" tab: the accessibility table the observation kept at this entry (a file below the served root).
import { useFileText } from '../data/use-file-text';
import type { StepPanel, StepPanelContext } from './types';

function Accessibility({ step }: StepPanelContext) {
  const text = useFileText(step.a11yTable, 500_000);
  return <pre>{step.a11yTable ? (text ?? 'Loading…') : 'No accessibility table at this step.'}</pre>;
}

export const accessibilityPanel: StepPanel = {
  id: 'a11y',
  title: 'Accessibility',
  Panel: Accessibility,
};
