// The task model reader: three task shapes into one Task model, JSON Schemas, and validation.
export { readTaskFile, loadTasks, resolveSplit, taskFromJson } from './reader';
export { detectFileKind, taskKinds, type FileKind } from './kind';
export {
  linkCounterparts,
  counterpartOf,
  duplicateIdProblems,
  type CounterpartLinks,
  type CounterpartPair,
} from './counterparts';
export { validatorFor, schemaProblems, type SchemaKind } from '../schemas';
export {
  validatePaths,
  formatProblem,
  type ValidationReport,
  type FileReport,
  type ValidateOptions,
} from './validation';
export { parseJsonText, lineColOf } from '../schemas';
export { accountsNeeded, accountServiceOf } from '../cloud-accounts';
export { unknownName, setupFuncs, metricNames, getterTypes } from './vocabulary';
export { collectionOf, domainOf } from './normalise';
