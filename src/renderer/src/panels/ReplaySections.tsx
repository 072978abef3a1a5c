// The replay's sections at one place: each registered section there that is offered for this task and entry, in
// the registry's order.
import { Fragment } from 'react';
import { replaySections, type ReplayContext, type ReplayPlace, type ReplaySection } from '.';

/** The sections offered at a place (a place with none may be left out of the page). */
export function sectionsAt(
  place: ReplayPlace,
  ctx: ReplayContext,
  sections: readonly ReplaySection[] = replaySections,
): ReplaySection[] {
  return sections.filter((s) => s.place === place && (s.available?.(ctx) ?? true));
}

export function ReplaySections({
  place,
  ctx,
  sections = replaySections,
}: {
  place: ReplayPlace;
  ctx: ReplayContext;
  sections?: readonly ReplaySection[];
}) {
  return (
    <>
      {sectionsAt(place, ctx, sections).map((s) => (
        <Fragment key={s.id}>
          <s.Section {...ctx} />
        </Fragment>
      ))}
    </>
  );
}
