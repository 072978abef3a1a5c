// Reports over runs: the paper's breakdowns (src/shared/breakdown.ts), run folders read into rows, statistics over
// attempts (stats.ts), their text and CSV.
export { readReportRun, readPriceFile, runDirsOf, type ReportRun, type ReadReportRunOptions } from './rows';
export { groupBySettings, formatSettingsGroups, settingsLabel, type SettingsGroup } from './settings-groups';
export { compareLinksFor, flippedTaskLink, type CompareLinks } from './links';
export {
  runStats,
  pairedComparison,
  taskStat,
  causeOf,
  passAtK,
  passHatK,
  mcnemarExact,
  bootstrapMeanCi,
  groupAttempts,
  errorCauses,
  DEFAULT_SEED,
  DEFAULT_RESAMPLES,
  type AttemptRow,
  type StatsOptions,
} from './stats';
export {
  formatRunStats,
  formatPaired,
  rateWithCi,
  causesLine,
  causeNames,
  retryCommand,
} from './stats-format';
export { attemptsCsv, csvColumns, csvField, type CsvRun } from './csv';
export {
  formatBreakdown,
  formatComparison,
  percent,
  rateBar,
  pointDiff,
  duration,
  countsLine,
} from './format';
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
