// The validator's vocabulary must know every name the engine can actually run, or valid tasks get warnings.
import { describe, expect, it } from 'vitest';
import { getterTypes, metricNames, setupFuncs } from './vocabulary';
import { setupFuncs as setupRegistry } from '../setup';
import { getters, metrics } from '../evaluators/catalog';

describe('the validator vocabulary', () => {
  it('knows every registered setup func', () => {
    expect(setupRegistry.names().filter((n) => !setupFuncs.has(n))).toEqual([]);
  });
  it('knows every registered metric', () => {
    expect(metrics.names().filter((n) => !metricNames.has(n))).toEqual([]);
  });
  it('knows every registered getter', () => {
    expect(getters.names().filter((n) => !getterTypes.has(n))).toEqual([]);
  });
});
