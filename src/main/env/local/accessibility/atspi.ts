// Native applications' accessibility trees over AT-SPI (D-Bus). The sandbox display's session bus knows
// where the accessibility bus is (org.a11y.Bus.GetAddress); the registry's desktop lists the applications,
// and each application answers for its own objects. Calls are issued level by level, all of a level at
// once, bounded by a node cap and a time budget: a hung application costs the budget, never the run.
import dbus from 'dbus-next';
import type { AccessibilityNode } from '../../environment';

const { sessionBus, Message } = dbus;
type Bus = ReturnType<typeof sessionBus>;

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
  /** Do not descend into nodes that are not `showing` (closed menus, hidden windows). Default true. */
  pruneHidden?: boolean;
}

/** AtspiStateType, in enum order (at-spi2-core atspi-constants.h). */
const STATE_NAMES = [
  'invalid', 'active', 'armed', 'busy', 'checked', 'collapsed', 'defunct', 'editable', 'enabled', 'expandable',
  'expanded', 'focusable', 'focused', 'has-tooltip', 'horizontal', 'iconified', 'modal', 'multi-line',
  'multiselectable', 'opaque', 'pressed', 'resizable', 'selectable', 'selected', 'sensitive', 'showing',
  'single-line', 'stale', 'transient', 'vertical', 'visible', 'manages-descendants', 'indeterminate', 'required',
  'truncated', 'animated', 'invalid-entry', 'supports-autocompletion', 'selectable-text', 'is-default', 'visited',
  'checkable', 'has-popup', 'read-only',
];

/** Decodes GetState's two 32-bit words into state names. */
export function atspiStateNames(words: number[]): string[] {
  const names: string[] = [];
  words.forEach((word, w) => {
    for (let bit = 0; bit < 32; bit++) {
      if ((word >>> bit) & 1) {
        const name = STATE_NAMES[w * 32 + bit];
        if (name) names.push(name);
      }
    }
  });
  return names;
}

/** AT-SPI role names use spaces (`push button`); OSWorld's tags use hyphens (`push-button`). */
export function atspiTag(roleName: string): string {
  return roleName.trim().toLowerCase().replace(/\s+/g, '-') || 'unknown';
}

const MAX_CHILDREN = 1000;
const MAX_TEXT = 10_000;
const ACCESSIBLE = 'org.a11y.atspi.Accessible';

class Deadline {
  constructor(readonly at: number) {}
  get left(): number {
    return this.at - Date.now();
  }
}

class TimedOut extends Error {}

async function call(
  bus: Bus,
  deadline: Deadline,
  destination: string,
  path: string,
  iface: string,
  member: string,
  signature = '',
  body: unknown[] = [],
): Promise<unknown[]> {
  const left = deadline.left;
  if (left <= 0) throw new TimedOut();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), left);
  });
  try {
    const pending = bus.call(new Message({ destination, path, interface: iface, member, signature, body }));
    pending.catch(() => undefined); // it may still fail after the deadline won the race, when the bus closes
    const reply = await Promise.race([pending, timeout]);
    return reply?.body ?? [];
  } finally {
    clearTimeout(timer);
  }
}

/** Same call, but an error reply (a dead object, a missing interface) gives `undefined`. Timeouts still throw. */
async function tryCall(...args: Parameters<typeof call>): Promise<unknown[] | undefined> {
  try {
    return await call(...args);
  } catch (error) {
    if (error instanceof TimedOut) throw error;
    return undefined;
  }
}

type Ref = [string, string];

interface Pending {
  ref: Ref;
  parent?: AccessibilityNode;
  app?: string;
}

/** Reads one object: its node, and the references of its children. */
async function readObject(
  bus: Bus,
  deadline: Deadline,
  [name, path]: Ref,
): Promise<{ node: AccessibilityNode; children: Ref[] } | undefined> {
  const [props, role, state, ifaces, children, extents, attrs] = await Promise.all([
    tryCall(bus, deadline, name, path, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [ACCESSIBLE]),
    tryCall(bus, deadline, name, path, ACCESSIBLE, 'GetRoleName'),
    tryCall(bus, deadline, name, path, ACCESSIBLE, 'GetState'),
    tryCall(bus, deadline, name, path, ACCESSIBLE, 'GetInterfaces'),
    tryCall(bus, deadline, name, path, ACCESSIBLE, 'GetChildren'),
    tryCall(bus, deadline, name, path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [0]),
    tryCall(bus, deadline, name, path, ACCESSIBLE, 'GetAttributes'),
  ]);
  if (!props || !role) return undefined; // the object went away while we walked
  const values = (props[0] ?? {}) as Record<string, { value: unknown }>;
  const str = (key: string): string => {
    const v = values[key]?.value;
    return typeof v === 'string' ? v : '';
  };
  const interfaces = (ifaces?.[0] as string[] | undefined) ?? [];
  const [x, y, width, height] = ((extents?.[0] as number[] | undefined) ?? [-1, -1, -1, -1]).map(Number);
  const attributes = (attrs?.[0] as Record<string, string> | undefined) ?? {};
  const node: AccessibilityNode = {
    role: atspiTag(String(role[0] ?? '')),
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
  if (interfaces.includes('org.a11y.atspi.Text')) {
    const text = await tryCall(bus, deadline, name, path, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, MAX_TEXT]);
    if (typeof text?.[0] === 'string' && text[0].length > 0) node.text = text[0];
  }
  const refs = ((children?.[0] as Ref[] | undefined) ?? []).slice(0, MAX_CHILDREN);
  return { node, children: refs };
}

/** The accessibility bus lives as long as its session bus: its address is asked once per session bus. */
const busAddresses = new Map<string, string>();

async function accessibilityBusAddress(dbusAddress: string, deadline: Deadline): Promise<string> {
  const known = busAddresses.get(dbusAddress);
  if (known) return known;
  const session = sessionBus({ busAddress: dbusAddress });
  session.on('error', () => undefined);
  try {
    const [address] = await call(session, deadline, 'org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress');
    if (typeof address !== 'string' || !address) throw new Error('org.a11y.Bus.GetAddress returned no address');
    if (busAddresses.size > 64) busAddresses.clear();
    busAddresses.set(dbusAddress, address);
    return address;
  } finally {
    session.disconnect();
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
  let address: string;
  try {
    address = await accessibilityBusAddress(opts.dbusAddress, deadline);
  } catch (error) {
    throw new Error(
      `AT-SPI: cannot reach the accessibility bus through the session bus ${redact(opts.dbusAddress)}: ${
        (error as Error).message || 'timed out'
      } (is at-spi-bus-launcher running on that session bus?)`,
      { cause: error },
    );
  }
  const reach = opts.hostAddress ?? ((a: string) => a);
  let bus = sessionBus({ busAddress: reach(address) });
  bus.on('error', () => undefined);
  const roots: AccessibilityNode[] = [];
  const desktopChildren = () =>
    call(bus, deadline, 'org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root', ACCESSIBLE, 'GetChildren');
  try {
    const desktop = await desktopChildren()
      .catch(async (error: unknown) => {
        if (error instanceof TimedOut) throw error;
        // a remembered accessibility bus that went away (the session restarted it): ask again, once
        busAddresses.delete(opts.dbusAddress);
        bus.disconnect();
        bus = sessionBus({ busAddress: reach(await accessibilityBusAddress(opts.dbusAddress, deadline)) });
        bus.on('error', () => undefined);
        return desktopChildren();
      })
      .catch((error: unknown) => {
        if (error instanceof TimedOut) return [[]];
        throw error;
      });
    let level: Pending[] = ((desktop[0] as Ref[] | undefined) ?? []).map((ref) => ({ ref }));
    let count = 0;
    while (level.length > 0 && count < maxNodes && deadline.left > 0) {
      level = level.slice(0, maxNodes - count);
      const read = await Promise.all(level.map((p) => readObject(bus, deadline, p.ref).catch(() => undefined)));
      const next: Pending[] = [];
      read.forEach((r, i) => {
        if (!r) return;
        const pending = level[i];
        const { node } = r;
        const isApp = !pending.parent;
        if (isApp) {
          if (skip.has(node.name.toLowerCase())) return;
          node.app = node.name;
          roots.push(node);
        } else {
          node.app = pending.app;
          (pending.parent!.children ??= []).push(node);
        }
        count++;
        if (prune && !isApp && !node.states.includes('showing')) return;
        for (const ref of r.children) next.push({ ref, parent: node, app: node.app });
      });
      level = next;
    }
  } finally {
    bus.disconnect();
  }
  return roots;
}

/** Bus addresses carry socket paths and GUIDs; show the kind and path only. */
function redact(address: string): string {
  return address.replace(/,guid=[0-9a-f]+/i, '');
}
