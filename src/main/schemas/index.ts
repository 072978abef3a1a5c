// The schemas folder's public surface: the published JSON Schemas compiled once, and the JSON-text helpers (limits
// on depth, JSON pointers, line and column of a parse error) every reader of untrusted JSON shares.
export { schemaProblems, validatorFor, type SchemaKind } from './validators';
export {
  jsonTypeOf,
  lineColOf,
  maxJsonDepth,
  nestedDeeperThan,
  parseJsonText,
  pointerOf,
  pointerToken,
} from './json-text';
