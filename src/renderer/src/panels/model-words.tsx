// The "Model's words" tab: the reply the trajectory kept and the step's conversation turns.
import { ModelWords } from '../components/ModelWords';
import type { StepPanel } from './types';

export const modelWordsPanel: StepPanel = {
  id: 'response',
  title: "Model's words",
  Panel: ({ step, group }) => <ModelWords entry={step} step={group} />,
};
