// Types of import-graph.mjs, for the tests that read the engine's folder graph.
export function unitOf(mainDir: string, absPath: string): string | null;
export function isTestFile(relPath: string): boolean;
export function importsOf(code: string): Array<{ spec: string; typeOnly: boolean }>;
export interface UnitImports {
  value: Map<string, string[]>;
  type: Map<string, string[]>;
}
export function importGraph(mainDir: string, options?: { withTests?: boolean }): Map<string, UnitImports>;
export function findCycles(edges: Record<string, string[]>): string[][];
export function deepImports(mainDir: string): { total: number; deep: Array<{ file: string; spec: string }> };
