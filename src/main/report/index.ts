// Reports over runs: the paper's breakdowns (src/shared/breakdown.ts), run folders read into rows, and their text.
export { readReportRun, readPriceFile, runDirsOf, type ReportRun, type ReadReportRunOptions } from './rows';
export { groupBySettings, formatSettingsGroups, settingsLabel, type SettingsGroup } from './settings-groups';
export { compareLinksFor, flippedTaskLink, type CompareLinks } from './links';
export { formatBreakdown, formatComparison, percent, rateBar, pointDiff, duration, countsLine } from './format';
export {
  breakdown,
  compareRuns,
  bucketStats,
  dimensions,
  dimensionNames,
  isDimensionName,
  categoryName,
  categoryNames,
  metadataFromTags,
  rowFromItem,
  outcomeOf,
  passed,
  type ReportRow,
  type BucketStats,
  type Breakdown,
  type Comparison,
  type BucketComparison,
  type Flips,
  type FlippedTask,
  type DimensionName,
  type RunRows,
} from '../../shared/breakdown';
