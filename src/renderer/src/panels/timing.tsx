// The "Tokens & timing" tab: the entry's token counts and the time each part of the step took.
import { formatDuration, formatTokens } from '../../../shared/format';
import type { StepPanel } from './types';

export const timingPanel: StepPanel = {
  id: 'timing',
  title: 'Tokens & timing',
  Panel: ({ step }) => (
    <table className="grid small">
      <tbody>
        <tr>
          <td>prompt tokens</td>
          <td>{formatTokens(step.tokens?.prompt)}</td>
        </tr>
        <tr>
          <td>completion tokens</td>
          <td>{formatTokens(step.tokens?.completion)}</td>
        </tr>
        <tr>
          <td>observe</td>
          <td>{formatDuration(step.timing?.observeMs)}</td>
        </tr>
        <tr>
          <td>agent</td>
          <td>{formatDuration(step.timing?.agentMs)}</td>
        </tr>
        <tr>
          <td>act</td>
          <td>{formatDuration(step.timing?.actMs)}</td>
        </tr>
        <tr>
          <td>store</td>
          <td>{formatDuration(step.timing?.storeMs)}</td>
        </tr>
        <tr>
          <td>at</td>
          <td>{step.at}</td>
        </tr>
      </tbody>
    </table>
  ),
};
