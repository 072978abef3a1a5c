// A sheet's cell objects kept between walks: LibreOffice makes a new object for every GetAccessibleAt (a thousand
// per walk, each costing it more than reading the cell's text); an object kept from an earlier walk answers its
// cell's text, states and box as they are now (sheet-cells.ts asks them every walk). Only a change of the sheet's
// shape (rows or columns inserted, deleted, reordered) leaves objects answering for content that moved away: the
// objects are kept only while those announcements can be heard (table-events.ts), and dropped at the first one.
// LibreOffice lets a cell object go some seconds after it was made (about 15 s; asking it again does not hold it):
// the objects made by one walk go together, so one of each walk's objects is asked first, and a walk's objects
// that are gone are dropped before the cells are read (any other that is gone is made anew by sheet-cells.ts).
import type { KeptCells } from './sheet-cells';
import type { TableEvents } from './table-events';

type Ref = [string, string];

/** The accessibility bus (as this host reaches it) and its listener for tables' shape changes. */
export interface Keep {
  bus: string;
  events: TableEvents;
}

/**
 * Sheets' cell objects kept between walks, by bus, listener, application and table: the count of shape changes the
 * application had announced when they were made (TableEvents.epoch), and the objects by `row,column`, each with
 * the walk that made it (when it was made).
 */
const keptSheets = new Map<string, { epoch: number; cells: Map<string, { ref: Ref; made: number }> }>();
const MAX_KEPT_CELLS = 20_000;
/**
 * Objects older than this are dropped unasked: LibreOffice 7.4 let a walk's objects go all at once about 15.5 s
 * after it made them (measured on 7.4.7), and one let go while a walk reads it costs a second round.
 */
const MAX_AGE_MS = 12_000;

/**
 * The kept cell objects of table `ref`, or undefined when they cannot be trusted (shape changes unheard). `alive`
 * asks one object whether the application still has it.
 */
export async function keptCells(
  keep: Keep | undefined,
  [app, path]: Ref,
  alive: (cell: Ref) => Promise<boolean>,
): Promise<KeptCells | undefined> {
  const epoch = keep ? await keep.events.epoch(app) : undefined;
  if (!keep || epoch === undefined) return undefined;
  const key = `${keep.bus} ${keep.events.id} ${app} ${path}`;
  let sheet = keptSheets.get(key);
  if (!sheet || sheet.epoch !== epoch) {
    sheet = { epoch, cells: new Map() };
    keptSheets.delete(key);
    keptSheets.set(key, sheet);
    while (keptSheets.size > 16) keptSheets.delete(keptSheets.keys().next().value!);
  }
  const { cells } = sheet;
  // one object of each walk's: a walk whose object is gone has all its objects dropped
  const sample = new Map<number, Ref>();
  for (const { ref, made } of cells.values()) if (!sample.has(made)) sample.set(made, ref);
  const gone = new Set<number>();
  const now = Date.now();
  await Promise.all(
    [...sample].map(async ([made, ref]) => {
      if (now - made > MAX_AGE_MS || !(await alive(ref).catch(() => false))) gone.add(made);
    }),
  );
  if (gone.size) for (const [at, c] of cells) if (gone.has(c.made)) cells.delete(at);
  const made = Date.now();
  return {
    get: (row, col) => cells.get(`${row},${col}`)?.ref,
    set: (row, col, cell) => {
      const at = `${row},${col}`;
      const had = cells.get(at);
      if (had && had.ref[0] === cell[0] && had.ref[1] === cell[1]) return; // asked again: still the walk that made it
      if (cells.size >= MAX_KEPT_CELLS) cells.clear();
      cells.set(at, { ref: cell, made });
    },
  };
}
