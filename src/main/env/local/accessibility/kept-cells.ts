// A sheet's cell objects kept between walks: LibreOffice makes a new object for every GetAccessibleAt (a thousand
// per walk, each costing it more than reading the cell's text); an object kept from an earlier walk answers its
// cell's text, states and box as they are now (sheet-cells.ts asks them every walk). Only a change of the sheet's
// shape (rows or columns inserted, deleted, reordered) leaves objects answering for content that moved away: the
// objects are kept only while those announcements can be heard (table-events.ts), and dropped at the first one.
import type { KeptCells } from './sheet-cells';
import type { TableEvents } from './table-events';

type Ref = [string, string];

/** The accessibility bus (as this host reaches it) and its listener for tables' shape changes. */
export interface Keep {
  bus: string;
  events: TableEvents;
}

/**
 * Sheets' cell objects kept between walks, by bus, application and table: the count of shape changes the
 * application had announced when they were made (TableEvents.epoch), and the objects by `row,column`.
 */
const keptSheets = new Map<string, { epoch: number; cells: Map<string, Ref> }>();
const MAX_KEPT_CELLS = 20_000;

/** The kept cell objects of table `ref`, or undefined when they cannot be trusted (shape changes unheard). */
export async function keptCells(keep: Keep | undefined, [app, path]: Ref): Promise<KeptCells | undefined> {
  const epoch = keep ? await keep.events.epoch(app) : undefined;
  if (!keep || epoch === undefined) return undefined;
  const key = `${keep.bus} ${app} ${path}`;
  let sheet = keptSheets.get(key);
  if (!sheet || sheet.epoch !== epoch) {
    sheet = { epoch, cells: new Map() };
    keptSheets.delete(key);
    keptSheets.set(key, sheet);
    while (keptSheets.size > 16) keptSheets.delete(keptSheets.keys().next().value!);
  }
  const { cells } = sheet;
  return {
    get: (row, col) => cells.get(`${row},${col}`),
    set: (row, col, cell) => {
      if (cells.size >= MAX_KEPT_CELLS) cells.clear();
      cells.set(`${row},${col}`, cell);
    },
  };
}
