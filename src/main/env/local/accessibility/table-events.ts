// Rows and columns of huge tables inserted, deleted or reordered, heard as AT-SPI events on the accessibility bus: a
// sheet's cell objects kept between walks (kept-cells.ts) hold their text as of such a change (LibreOffice 7.4 does
// not refresh a cell object whose row moved), so every change of that kind from an application drops its kept cells.
// A cell's content changing (typing, undo, a formula recalculated) sends no event at all, but a kept cell object
// answers it afresh: only the objects are kept, never their text or states.
import { DBusConnection } from './dbus-wire';

const EVENT_OBJECT = 'org.a11y.atspi.Event.Object';
/** The events (member, and the name the registry knows it by) after which a table's cell objects may be stale. */
const SHAPE_EVENTS: [string, string][] = [
  ['RowInserted', 'object:row-inserted'],
  ['RowDeleted', 'object:row-deleted'],
  ['RowReordered', 'object:row-reordered'],
  ['ColumnInserted', 'object:column-inserted'],
  ['ColumnDeleted', 'object:column-deleted'],
  ['ColumnReordered', 'object:column-reordered'],
  ['ModelChanged', 'object:model-changed'],
];
const SHAPE_MEMBERS = new Set(SHAPE_EVENTS.map(([m]) => m));
const REGISTRY = 'org.a11y.atspi.Registry';
let listenersMade = 0;

/** A listener on one accessibility bus, kept for the process (the registry forgets it when its connection ends). */
export class TableEvents {
  private readonly epochs = new Map<string, number>();
  private ready = false;

  /** Told apart from an earlier listener on the same bus (whose counts it does not share). */
  readonly id = ++listenersMade;

  private constructor(private readonly conn: DBusConnection) {
    conn.onSignal = (s) => {
      // a registry that restarts has forgotten what the applications were asked to send
      if (s.member === 'NameOwnerChanged' && s.body[0] === REGISTRY) return this.close();
      if (s.iface !== EVENT_OBJECT || !SHAPE_MEMBERS.has(s.member)) return;
      this.epochs.set(s.sender, (this.epochs.get(s.sender) ?? 0) + 1);
    };
  }

  /** Connects to the accessibility bus at `address` and asks the registry for the events; undefined if it cannot. */
  static async listen(address: string): Promise<TableEvents | undefined> {
    let conn: DBusConnection | undefined;
    try {
      conn = await DBusConnection.connect(address, { timeoutMs: 2000 });
      conn.unref();
      const t = new TableEvents(conn);
      const c = conn;
      const rules = [
        ...SHAPE_EVENTS.map(([member]) => `type='signal',interface='${EVENT_OBJECT}',member='${member}'`),
        `type='signal',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${REGISTRY}'`,
      ];
      await Promise.all(
        rules.map((rule) =>
          c.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch', 's', [
            rule,
          ]),
        ),
      );
      await Promise.all(
        SHAPE_EVENTS.map(([, name]) =>
          c.call(REGISTRY, '/org/a11y/atspi/registry', REGISTRY, 'RegisterEvent', 's', [name]),
        ),
      );
      t.ready = true;
      return t;
    } catch {
      conn?.close();
      return undefined;
    }
  }

  /** Listening, and the registry has told every application so. */
  get listening(): boolean {
    return this.ready && !this.conn.closed;
  }

  /**
   * The count of shape changes application `app` (its bus name) has announced, once every event it sent before
   * this call has arrived: a call to it through the bus is answered after them (one connection keeps its order).
   * Undefined when that cannot be known (not listening, the application does not answer).
   */
  async epoch(app: string): Promise<number | undefined> {
    if (!this.listening) return undefined;
    try {
      await this.conn
        .call(app, '/org/a11y/atspi/accessible/root', 'org.freedesktop.DBus.Peer', 'Ping')
        .catch((e: unknown) => {
          // an error reply is ordered like any reply; only a closed connection means nothing
          if (this.conn.closed) throw e;
        });
    } catch {
      return undefined;
    }
    return this.listening ? (this.epochs.get(app) ?? 0) : undefined;
  }

  close(): void {
    this.conn.close();
  }
}

const listeners = new Map<string, Promise<TableEvents | undefined>>();

/**
 * The listener on the accessibility bus at `address` (as this host reaches it), started on first use. Resolves
 * undefined while it is starting or when it could not start (tried again on a later call).
 */
export function tableEvents(address: string): TableEvents | undefined {
  let p = listeners.get(address);
  if (!p) {
    const started = TableEvents.listen(address);
    p = started;
    listeners.set(address, started);
    if (listeners.size > 64) listeners.delete(listeners.keys().next().value!);
    void started.then((t) => {
      if (!t) listeners.delete(address);
      else resolved.set(started, t);
    });
  }
  const t = resolved.get(p);
  if (t && !t.listening) {
    listeners.delete(address);
    return undefined;
  }
  return t;
}

const resolved = new WeakMap<Promise<TableEvents | undefined>, TableEvents>();
