// Native applications' accessibility trees over AT-SPI (D-Bus). The sandbox display's session bus knows
// where the accessibility bus is (org.a11y.Bus.GetAddress); the registry's desktop lists the applications,
// and each application answers for its own objects. Every object is asked as soon as its parent lists it, all
// calls outstanding at once on one connection (dbus-wire.ts), bounded by a node cap and a time budget: a hung
// application costs the budget, never the run.
import type { AccessibilityNode } from '../../environment';
import { DBusCallError, DBusConnection } from './dbus-wire';
import { peerConnection } from './peer';
import { atspiStateNames, atspiTag } from './atspi-names';
import { gridCells } from './sheet-cells';

/** Where calls go: the accessibility bus, or an application's own socket (peer.ts). */
interface Bus {
  call(
    destination: string | undefined,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown[]>;
}

export interface AtspiOptions {
  /** The session bus address of the display (DBUS_SESSION_BUS_ADDRESS). */
  dbusAddress: string;
  /** Time budget for the whole walk; what was gathered when it runs out is returned. Default 3000 ms. */
  timeoutMs?: number;
  /** Node cap over all applications. Default 5000. */
  maxNodes?: number;
  /** Applications left out, matched case-insensitively against the application's name (e.g. `chromium`). */
  skipApps?: string[];
  /** Maps the accessibility bus address the display reports to one this host reaches (sandboxed displays). */
  hostAddress?: (address: string) => string;
  /**
   * Leave out nodes that are not `showing` (closed menus' items, hidden windows) with all below them, asking
   * only their states: no agent is shown them (observe/filter.ts). Default true.
   */
  pruneHidden?: boolean;
  /**
   * Ask each application on its own socket when it offers one (peer.ts), skipping the bus daemon's relay.
   * Default true; false: everything through the accessibility bus.
   */
  direct?: boolean;
  /**
   * How a huge table's visible cells are read: `grid` (default) asks every visible cell its text and states and
   * takes names and boxes from the table's grid (sheet-cells.ts); `walk` reads each cell as an object of its own
   * (the earlier way, kept to check the grid against); `none` leaves them out (the rest of the tree, measured alone).
   */
  tableCells?: 'grid' | 'walk' | 'none';
}

export { atspiStateNames, atspiTag } from './atspi-names';

/**
 * Containers with more children than this are never asked for their list: GetChildren makes the application
 * build every child, and a Calc sheet reports 2^31−1 of them (LibreOffice hangs, and with it every later walk).
 */
const MAX_CHILDREN = 1000;
/** Cells taken from a huge table's visible range, at most. */
const MAX_VISIBLE_CELLS = 2500;
/** Children taken by index from a huge container that is not a table. */
const MAX_HUGE_CHILDREN = 200;
/** Text kept per node. Text is asked as characters 0 to −1 (the whole): Writer paragraphs answer nothing to 0–10000. */
const MAX_TEXT = 10_000;
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const COMPONENT = 'org.a11y.atspi.Component';
const TABLE = 'org.a11y.atspi.Table';
const TEXT = 'org.a11y.atspi.Text';
const NULL_PATH = '/org/a11y/atspi/null';

class Deadline {
  constructor(readonly at: number) {}
  get left(): number {
    return this.at - Date.now();
  }
}

class TimedOut extends Error {}

/** One method call. The walk's deadline fails the whole connection (one timer, not one per call). */
function call(
  bus: Bus,
  deadline: Deadline,
  destination: string,
  path: string,
  iface: string,
  member: string,
  signature = '',
  body: unknown[] = [],
): Promise<unknown[]> {
  if (deadline.left <= 0) return Promise.reject(new TimedOut());
  return bus.call(destination, path, iface, member, signature, body);
}

const noReply = (error: unknown): undefined => {
  if (error instanceof DBusCallError) return undefined;
  throw error;
};

/** Same call, but an error reply (a dead object, a missing interface) gives `undefined`. Timeouts still throw. */
function tryCall(...args: Parameters<typeof call>): Promise<unknown[] | undefined> {
  return call(...args).catch(noReply);
}

/** A connection kept between walks, seen by one walk: at its deadline this walk's calls fail, the connection stays. */
class Scoped implements Bus {
  /** This walk's calls on the connection (the connection fails them as a group). */
  private readonly group = {};
  private dead = false;

  constructor(private readonly conn: DBusConnection) {}

  call(
    destination: string | undefined,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: unknown[],
  ): Promise<unknown[]> {
    if (this.dead) return Promise.reject(new TimedOut());
    return this.conn.call(destination, path, iface, member, signature, body, this.group);
  }

  expire(): void {
    this.dead = true;
    this.conn.failGroup(this.group, new TimedOut());
  }
}

/** Connects to `address`; a connection still open at the deadline is failed with TimedOut. */
async function open(address: string, deadline: Deadline): Promise<{ bus: Bus; done: () => void }> {
  if (deadline.left <= 0) throw new TimedOut();
  const bus = await DBusConnection.connect(address, { timeoutMs: Math.max(1, deadline.left) });
  const timer = setTimeout(() => bus.fail(new TimedOut()), Math.max(0, deadline.left));
  return {
    bus,
    done: () => {
      clearTimeout(timer);
      bus.close();
    },
  };
}

type Ref = [string, string];

interface Pending {
  ref: Ref;
  parent?: AccessibilityNode;
  app?: string;
  /** The application's own socket, when it has one (its objects are asked there). */
  peer?: { name: string; bus: Bus };
  /** A cell of a huge table (its text and states first; an empty one is left out). */
  cell?: boolean;
}

interface ObjectRead {
  node: AccessibilityNode;
  children: Ref[];
  /** The children are the visible cells of a huge table. */
  hugeTable: boolean;
  /** A huge table's visible cells, read as a grid (then `children` is empty). */
  cells?: AccessibilityNode[];
}

function textOf(reply: unknown[] | undefined): string | undefined {
  const t = reply?.[0];
  return typeof t === 'string' && t.length > 0 ? t.slice(0, MAX_TEXT) : undefined;
}

function nodeOf(
  props: unknown[],
  role: string,
  state: unknown[] | undefined,
  extents: unknown[] | undefined,
  attrs?: unknown[],
): AccessibilityNode {
  const values = (props[0] ?? {}) as Record<string, { value: unknown }>;
  const str = (key: string): string => {
    const v = values[key]?.value;
    return typeof v === 'string' ? v : '';
  };
  const [x, y, width, height] = ((extents?.[0] as number[] | undefined) ?? [-1, -1, -1, -1]).map(Number);
  const attributes = (attrs?.[0] as Record<string, string> | undefined) ?? {};
  return {
    role: atspiTag(role),
    name: str('Name').trim(),
    description: str('Description').trim() || undefined,
    className: attributes.class || undefined,
    x,
    y,
    width,
    height,
    states: atspiStateNames(((state?.[0] as number[] | undefined) ?? []).map(Number)),
    source: 'atspi',
  };
}

function childCountOf(props: unknown[]): number {
  const n = Number((props[0] as Record<string, { value: unknown }> | undefined)?.ChildCount?.value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

interface ReadMode {
  /** A cell of a huge table (a table's GetAccessibleAt gives cells): its text and states, then name and box if kept. */
  cell?: boolean;
  /** Leave the object out when it is not showing (asking its states only). */
  showingOnly?: boolean;
  /** How a huge table's visible cells are read (AtspiOptions.tableCells). */
  tableCells?: AtspiOptions['tableCells'];
  /** Gives a huge table's cells read as a grid: `fresh` reads them now; the walk may have read them already. */
  sheet?: (
    ref: Ref,
    table: AccessibilityNode,
    fresh: () => Promise<AccessibilityNode[]>,
  ) => Promise<AccessibilityNode[]>;
}

/**
 * Reads one object: its node, and the references of the children to walk; undefined when it went away (or is
 * not showing, with `showingOnly`). Rounds of calls, each all at once: states; then name, role, interfaces,
 * box and attributes; then text and children (a short list whole, a huge table's visible cells).
 */
async function readObject(
  bus: Bus,
  deadline: Deadline,
  ref: Ref,
  mode: ReadMode = {},
): Promise<ObjectRead | undefined> {
  const [name, path] = ref;
  const ask = (iface: string, member: string, signature = '', body: unknown[] = []) =>
    tryCall(bus, deadline, name, path, iface, member, signature, body);
  const listChildren = async (count: number): Promise<Ref[]> =>
    count <= 0
      ? []
      : (((await ask(ACCESSIBLE, 'GetChildren'))?.[0] as Ref[] | undefined) ?? []).slice(0, MAX_CHILDREN);
  if (mode.cell) {
    // A sheet's cell has no children. Its text and states first: an empty cell is left out (an agent reads
    // nothing there, and a sheet shows a thousand of them) unless it has the focus or is selected, which is where
    // typing goes. Then its name (Get, lighter than GetAll) and box.
    const [text, state] = await Promise.all([
      ask(TEXT, 'GetText', 'ii', [0, -1]),
      ask(ACCESSIBLE, 'GetState'),
    ]);
    if (!state) return undefined;
    const states = atspiStateNames(((state[0] as number[] | undefined) ?? []).map(Number));
    if (mode.showingOnly && !states.includes('showing')) return undefined;
    const t = textOf(text);
    if (!t && !states.includes('focused') && !states.includes('selected')) return undefined;
    const [nameReply, extents] = await Promise.all([
      ask('org.freedesktop.DBus.Properties', 'Get', 'ss', [ACCESSIBLE, 'Name']),
      ask(COMPONENT, 'GetExtents', 'u', [0]),
    ]);
    if (!nameReply) return undefined;
    const node = nodeOf([{ Name: nameReply[0] }], 'table cell', state, extents);
    if (t) node.text = t;
    return { node, children: [], hugeTable: false };
  }
  const state = await ask(ACCESSIBLE, 'GetState');
  if (!state) return undefined;
  const states = atspiStateNames(((state[0] as number[] | undefined) ?? []).map(Number));
  if (mode.showingOnly && !states.includes('showing')) return undefined;
  const [props, role, ifaces, extents] = await Promise.all([
    ask('org.freedesktop.DBus.Properties', 'GetAll', 's', [ACCESSIBLE]),
    ask(ACCESSIBLE, 'GetRoleName'),
    ask(ACCESSIBLE, 'GetInterfaces'),
    ask(COMPONENT, 'GetExtents', 'u', [0]),
  ]);
  if (!props || !role) return undefined; // the object went away while we walked
  // at-spi2 ≥ 2.46 gives the attributes among the properties; older bridges are asked (with the text and children)
  const inProps = (props[0] as Record<string, { value: unknown }> | undefined)?.Attributes;
  const attrs = inProps ? [inProps.value] : await ask(ACCESSIBLE, 'GetAttributes');
  const node = nodeOf(props, String(role[0] ?? ''), state, extents, attrs);
  const interfaces = (ifaces?.[0] as string[] | undefined) ?? [];
  const count = childCountOf(props);
  const huge = count > MAX_CHILDREN || states.includes('manages-descendants');
  const hugeTable = huge && count > 0 && interfaces.includes(TABLE);
  let cells: AccessibilityNode[] | undefined;
  const [text, children] = await Promise.all([
    interfaces.includes(TEXT) ? ask(TEXT, 'GetText', 'ii', [0, -1]).then(textOf) : undefined,
    !huge
      ? listChildren(count).then((refs) =>
          mode.showingOnly && node.role === 'menu' ? openMenuItems(bus, deadline, refs) : refs,
        )
      : hugeTable
        ? mode.tableCells === 'grid' || mode.tableCells === undefined
          ? (async () => {
              const fresh = () => readGrid(bus, deadline, ref, node, !!mode.showingOnly);
              cells = await (mode.sheet ? mode.sheet(ref, node, fresh) : fresh());
              return [];
            })()
          : visibleRange(bus, deadline, ref, node).then((range) =>
              range && mode.tableCells === 'walk' ? cellsOfRange(bus, deadline, ref, range) : [],
            )
        : count > 0
          ? firstChildren(bus, deadline, ref, Math.min(count, MAX_HUGE_CHILDREN))
          : [],
  ]);
  if (text) node.text = text;
  return { node, children, hugeTable, cells };
}

/**
 * A menu's items when the menu is open, none when it is closed: a popup's items show all together, so its first
 * and last item tell (a closed menu bar costs two calls per menu, not one per item).
 */
async function openMenuItems(bus: Bus, deadline: Deadline, refs: Ref[]): Promise<Ref[]> {
  if (refs.length <= 2) return refs;
  const probes = await Promise.all(
    [refs[0], refs[refs.length - 1]].map(([n, p]) => tryCall(bus, deadline, n, p, ACCESSIBLE, 'GetState')),
  );
  const showing = probes.some((s) =>
    atspiStateNames(((s?.[0] as number[] | undefined) ?? []).map(Number)).includes('showing'),
  );
  return showing ? refs : [];
}

/** The first `n` children of a huge container, one GetChildAtIndex each. */
async function firstChildren(bus: Bus, deadline: Deadline, [name, path]: Ref, n: number): Promise<Ref[]> {
  const replies = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      tryCall(bus, deadline, name, path, ACCESSIBLE, 'GetChildAtIndex', 'i', [i]),
    ),
  );
  return replies.map((r) => r?.[0] as Ref | undefined).filter((r): r is Ref => !!r && r[1] !== NULL_PATH);
}

/**
 * The rows and columns of a huge table (a Calc sheet) that are on screen, as its top-left and bottom-right
 * visible cells (row, column): the cells at the table's corners (their index in the table → row, column).
 * Never enumerates the table's children.
 */
async function visibleRange(
  bus: Bus,
  deadline: Deadline,
  [name, path]: Ref,
  table: Pick<AccessibilityNode, 'x' | 'y' | 'width' | 'height'>,
): Promise<[[number, number], [number, number]] | undefined> {
  if (!(table.width > 2 && table.height > 2)) return undefined;
  const cellAt = async (x: number, y: number): Promise<[number, number] | undefined> => {
    const at = (
      await tryCall(bus, deadline, name, path, COMPONENT, 'GetAccessibleAtPoint', 'iiu', [x, y, 0])
    )?.[0] as Ref | undefined;
    if (!at || at[1] === NULL_PATH) return undefined;
    const index = Number((await tryCall(bus, deadline, at[0], at[1], ACCESSIBLE, 'GetIndexInParent'))?.[0]);
    if (!(index >= 0)) return undefined;
    const rc = await tryCall(bus, deadline, name, path, TABLE, 'GetRowColumnExtentsAtIndex', 'i', [index]);
    const [ok, row, col] = [rc?.[0], Number(rc?.[1]), Number(rc?.[2])];
    return ok !== false && row >= 0 && col >= 0 ? [row, col] : undefined;
  };
  const [first, last] = await Promise.all([
    cellAt(table.x + 1, table.y + 1),
    cellAt(table.x + table.width - 2, table.y + table.height - 2),
  ]);
  return first && last ? [first, last] : undefined;
}

/** The visible cells of a huge table `ref` whose box is `table`'s, read as a grid (sheet-cells.ts). */
async function readGrid(
  bus: Bus,
  deadline: Deadline,
  ref: Ref,
  table: Pick<AccessibilityNode, 'x' | 'y' | 'width' | 'height'>,
  showingOnly: boolean,
): Promise<AccessibilityNode[]> {
  const range = await visibleRange(bus, deadline, ref, table);
  if (!range) return [];
  const ask = (n: string, p: string, i: string, m: string, sig?: string, body?: unknown[]) =>
    tryCall(bus, deadline, n, p, i, m, sig, body);
  return gridCells(ask, ref, range[0], range[1], {
    maxCells: MAX_VISIBLE_CELLS,
    maxText: MAX_TEXT,
    showingOnly,
  });
}

type Box = [number, number, number, number];
const boxKey = (n: Pick<AccessibilityNode, 'x' | 'y' | 'width' | 'height'>): string =>
  `${n.x},${n.y},${n.width},${n.height}`;

/**
 * The sheet (huge table) each application showed at its last walk, by the application's bus name: the next walk
 * starts reading its cells at once, beside the walk down to it, and takes them when it finds the same table with
 * the same box there (else they are read again).
 */
const lastSheets = new Map<string, { ref: Ref; box: Box }>();

/** The cells of a visible range, one GetAccessibleAt each (each then read as an object of its own). */
async function cellsOfRange(
  bus: Bus,
  deadline: Deadline,
  [name, path]: Ref,
  [first, last]: [[number, number], [number, number]],
): Promise<Ref[]> {
  const rows = Math.max(0, last[0] - first[0] + 1);
  const cols = Math.max(0, Math.min(last[1] - first[1] + 1, MAX_VISIBLE_CELLS));
  const wanted: [number, number][] = [];
  for (let r = 0; r < rows && wanted.length < MAX_VISIBLE_CELLS; r++) {
    for (let c = 0; c < cols && wanted.length < MAX_VISIBLE_CELLS; c++)
      wanted.push([first[0] + r, first[1] + c]);
  }
  const replies = await Promise.all(
    wanted.map(([r, c]) => tryCall(bus, deadline, name, path, TABLE, 'GetAccessibleAt', 'ii', [r, c])),
  );
  return replies.map((r) => r?.[0] as Ref | undefined).filter((r): r is Ref => !!r && r[1] !== NULL_PATH);
}

/** The accessibility bus lives as long as its session bus: its address is asked once per session bus. */
const busAddresses = new Map<string, string>();

async function accessibilityBusAddress(dbusAddress: string, deadline: Deadline): Promise<string> {
  const known = busAddresses.get(dbusAddress);
  if (known) return known;
  const { bus, done } = await open(dbusAddress, deadline);
  try {
    const [address] = await call(
      bus,
      deadline,
      'org.a11y.Bus',
      '/org/a11y/bus',
      'org.a11y.Bus',
      'GetAddress',
    );
    if (typeof address !== 'string' || !address)
      throw new Error('org.a11y.Bus.GetAddress returned no address');
    if (busAddresses.size > 64) busAddresses.clear();
    busAddresses.set(dbusAddress, address);
    return address;
  } finally {
    done();
  }
}

/**
 * Walks the AT-SPI desktop of the display whose session bus is `dbusAddress`. Returns one root per
 * application (role `application`, `app` = its name) with its descendants as `children`; boxes are
 * screen pixels (GetExtents with ATSPI_COORD_TYPE_SCREEN). Applications without the accessibility
 * bridge are simply absent.
 */
export async function collectAtspiTree(opts: AtspiOptions): Promise<AccessibilityNode[]> {
  const deadline = new Deadline(Date.now() + (opts.timeoutMs ?? 3000));
  const maxNodes = opts.maxNodes ?? 5000;
  const skip = new Set((opts.skipApps ?? []).map((a) => a.toLowerCase()));
  const prune = opts.pruneHidden ?? true;
  const tableCells = opts.tableCells ?? 'grid';
  const reach = opts.hostAddress ?? ((a: string) => a);
  const cannotReach = (error: unknown): Error =>
    new Error(
      `AT-SPI: cannot reach the accessibility bus through the session bus ${redact(opts.dbusAddress)}: ${
        error instanceof TimedOut ? 'timed out' : (error as Error).message
      } (is at-spi-bus-launcher running on that session bus?)`,
      { cause: error },
    );
  let conn: Awaited<ReturnType<typeof open>>;
  try {
    conn = await open(reach(await accessibilityBusAddress(opts.dbusAddress, deadline)), deadline);
  } catch (error) {
    if (error instanceof TimedOut || !busAddresses.has(opts.dbusAddress)) throw cannotReach(error);
    // a remembered accessibility bus that went away (the session restarted it): ask again, once
    busAddresses.delete(opts.dbusAddress);
    try {
      conn = await open(reach(await accessibilityBusAddress(opts.dbusAddress, deadline)), deadline);
    } catch (again) {
      throw cannotReach(again);
    }
  }
  const { bus, done } = conn;
  const roots: AccessibilityNode[] = [];
  const scoped: Scoped[] = [];
  const expire = setTimeout(() => scoped.forEach((c) => c.expire()), Math.max(0, deadline.left));
  try {
    const desktop = await call(
      bus,
      deadline,
      'org.a11y.atspi.Registry',
      '/org/a11y/atspi/accessible/root',
      ACCESSIBLE,
      'GetChildren',
    ).catch((error: unknown) => {
      if (error instanceof TimedOut) return [[]];
      throw error;
    });
    // Every object is read as soon as its parent has listed it (no wait for the rest of its level), so the
    // application is never left idle between levels; children keep their order. The node cap is taken when a
    // read starts, so the nodes nearest the roots (listed first) are the ones kept.
    let count = 0;
    // An application's own socket, when it offers one: its address is asked on the bus (one call per walk).
    const peerOf = async ([name, path]: Ref): Promise<Pending['peer']> => {
      if (opts.direct === false) return undefined;
      const reply = await tryCall(
        bus,
        deadline,
        name,
        path,
        'org.a11y.atspi.Application',
        'GetApplicationBusAddress',
      ).catch(() => undefined);
      const address = reply?.[0];
      if (typeof address !== 'string' || !address) return undefined;
      const conn = await peerConnection(reach(address));
      if (!conn || deadline.left <= 0) return undefined;
      const s = new Scoped(conn);
      scoped.push(s);
      return { name, bus: s };
    };
    // the sheets read early (lastSheets), and those this walk finds, by their application's bus name
    const early = new Map<string, { box: string; cells: Promise<AccessibilityNode[] | undefined> }>();
    const found = new Map<string, { ref: Ref; box: Box }>();
    const readEarly = (app: string, appBus: Bus): void => {
      const last = tableCells === 'grid' ? lastSheets.get(app) : undefined;
      if (!last) return;
      const [x, y, width, height] = last.box;
      const table = { x, y, width, height };
      early.set(app, {
        box: boxKey(table),
        cells: readGrid(appBus, deadline, last.ref, table, prune).catch(() => undefined),
      });
    };
    const sheet = (
      ref: Ref,
      table: AccessibilityNode,
      fresh: () => Promise<AccessibilityNode[]>,
    ): Promise<AccessibilityNode[]> => {
      found.set(ref[0], { ref, box: [table.x, table.y, table.width, table.height] });
      const e = early.get(ref[0]);
      const last = lastSheets.get(ref[0]);
      if (!e || !last || last.ref[1] !== ref[1] || e.box !== boxKey(table)) return fresh();
      return e.cells.then((cells) => cells ?? fresh());
    };
    const visit = async (p: Pending): Promise<AccessibilityNode | undefined> => {
      if (count >= maxNodes || deadline.left <= 0) return undefined;
      count++;
      const isApp = !p.parent;
      const [r, peer] = await Promise.all([
        readObject(p.peer && p.peer.name === p.ref[0] ? p.peer.bus : bus, deadline, p.ref, {
          cell: p.cell,
          showingOnly: prune && !!p.parent,
          tableCells,
          sheet,
        }).catch(() => undefined),
        isApp
          ? peerOf(p.ref).then((own) => {
              readEarly(p.ref[0], own && own.name === p.ref[0] ? own.bus : bus);
              return own;
            })
          : p.peer,
      ]);
      if (!r || (isApp && skip.has(r.node.name.toLowerCase()))) {
        count--;
        return undefined;
      }
      const { node } = r;
      node.app = isApp ? node.name : p.app;
      const kids = await Promise.all(
        r.children.map((ref) => visit({ ref, parent: node, app: node.app, cell: r.hugeTable, peer })),
      );
      const children = kids.filter((k): k is AccessibilityNode => k !== undefined);
      if (r.cells) {
        // the grid's cells count against the node cap like walked ones
        const room = Math.max(0, maxNodes - count);
        count += Math.min(room, r.cells.length);
        for (const cell of r.cells.slice(0, room)) {
          cell.app = node.app;
          children.push(cell);
        }
      }
      if (children.length) node.children = children;
      return node;
    };
    const apps = await Promise.all(((desktop[0] as Ref[] | undefined) ?? []).map((ref) => visit({ ref })));
    roots.push(...apps.filter((a): a is AccessibilityNode => a !== undefined));
    if (deadline.left > 0) {
      // a walk that ran out of time may not have reached a sheet that is still there
      for (const app of early.keys()) if (!found.has(app)) lastSheets.delete(app);
      for (const [app, t] of found) lastSheets.set(app, t);
      while (lastSheets.size > 64) lastSheets.delete(lastSheets.keys().next().value!);
    }
  } finally {
    clearTimeout(expire);
    scoped.forEach((c) => c.expire());
    done();
  }
  return roots;
}

/** Bus addresses carry socket paths and GUIDs; show the kind and path only. */
function redact(address: string): string {
  return address.replace(/,guid=[0-9a-f]+/i, '');
}
