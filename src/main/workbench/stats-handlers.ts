// runs.stats and runs.pairedStats: a run's statistics over its attempts and two runs paired, as `proctor report`
// computes them (src/main/report/stats.ts), for the run table, the replay and the compare view.
import type { ApiHandlers } from '../../shared/api';
import { pairedComparison, readReportRun, runStats } from '../report';
import { ApiRequestError } from './api-error';
import { relativeToRoot } from './paths';

type StatsMethods = Pick<ApiHandlers, 'runs.stats' | 'runs.pairedStats'>;

/** The breakdowns the UI shows with intervals. */
const uiDims = ['category', 'app', 'difficulty'] as const;

export function statsHandlers(root: string, runDir: (runId: string) => string): StatsMethods {
  const rowsOf = async (runId: string) => {
    const dir = runDir(runId);
    try {
      return { dir, rows: (await readReportRun(dir, { root })).rows };
    } catch (e) {
      if (e instanceof ApiRequestError) throw e;
      throw new ApiRequestError('not_found', (e as Error).message);
    }
  };
  return {
    'runs.stats': async ({ runId, includeErrors }) =>
      runStats((await rowsOf(runId)).rows, { includeErrors: includeErrors ?? false, dims: uiDims }),
    'runs.pairedStats': async ({ runIds, includeErrors }) => {
      if (runIds.length !== 2 || runIds[0] === runIds[1])
        throw new ApiRequestError(
          'bad_request',
          `runIds: give two different runs (got ${runIds.join(', ')})`,
        );
      const [a, b] = await Promise.all(runIds.map(rowsOf));
      const label = (dir: string) => relativeToRoot(root, dir) || '.';
      return pairedComparison(
        { label: label(a.dir), rows: a.rows },
        { label: label(b.dir), rows: b.rows },
        { includeErrors: includeErrors ?? false },
      );
    },
  };
}
