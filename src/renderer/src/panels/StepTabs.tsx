// The tab bar below the stage: one tab per registered panel; the chosen one (the link's `tab=`) shows its body.
import type { StepRecord } from '../../../shared/run';
import { stepPanels, type StepPanel } from '.';

/** The panel a link names, else the first offered one (an old or mistyped `tab=` still shows a tab). */
export function panelOf(panels: readonly StepPanel[], id: string | null | undefined): StepPanel | undefined {
  return panels.find((p) => p.id === id) ?? panels[0];
}

export function StepTabs({
  step,
  group,
  tab,
  onTab,
  panels = stepPanels,
}: {
  step: StepRecord;
  group: readonly StepRecord[];
  tab?: string | null;
  onTab: (id: string) => void;
  panels?: readonly StepPanel[];
}) {
  const ctx = { step, group };
  const offered = panels.filter((p) => p.available?.(ctx) ?? true);
  const current = panelOf(offered, tab);
  return (
    <div className="tabs">
      <div className="tab-bar" role="tablist">
        {offered.map((p) => (
          <button
            key={p.id}
            role="tab"
            aria-selected={p === current}
            className={p === current ? 'current' : ''}
            onClick={() => onTab(p.id)}
          >
            {p.title}
            {p.mark?.(ctx) ?? ''}
          </button>
        ))}
      </div>
      {current && (
        <div className="tab-body" data-testid={`tab-${current.id}`}>
          <current.Panel step={step} group={group} />
        </div>
      )}
    </div>
  );
}
