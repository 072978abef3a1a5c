// AT-SPI's state and role names as Proctor writes them (OSWorld's spelling).

/** AtspiStateType, in enum order (at-spi2-core atspi-constants.h). */
const STATE_NAMES = [
  'invalid',
  'active',
  'armed',
  'busy',
  'checked',
  'collapsed',
  'defunct',
  'editable',
  'enabled',
  'expandable',
  'expanded',
  'focusable',
  'focused',
  'has-tooltip',
  'horizontal',
  'iconified',
  'modal',
  'multi-line',
  'multiselectable',
  'opaque',
  'pressed',
  'resizable',
  'selectable',
  'selected',
  'sensitive',
  'showing',
  'single-line',
  'stale',
  'transient',
  'vertical',
  'visible',
  'manages-descendants',
  'indeterminate',
  'required',
  'truncated',
  'animated',
  'invalid-entry',
  'supports-autocompletion',
  'selectable-text',
  'is-default',
  'visited',
  'checkable',
  'has-popup',
  'read-only',
];

/** Decodes GetState's two 32-bit words into state names. */
export function atspiStateNames(words: number[]): string[] {
  const names: string[] = [];
  words.forEach((word, w) => {
    for (let bit = 0; bit < 32; bit++) {
      if ((word >>> bit) & 1) {
        const name = STATE_NAMES[w * 32 + bit];
        if (name) names.push(name);
      }
    }
  });
  return names;
}

/** AT-SPI role names use spaces (`push button`); OSWorld's tags use hyphens (`push-button`). */
export function atspiTag(roleName: string): string {
  return roleName.trim().toLowerCase().replace(/\s+/g, '-') || 'unknown';
}
