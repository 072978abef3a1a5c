// A named registry for an open set: setup funcs, metrics, getters, agents, environment kinds (env/registry.ts).
import { nearestName } from './nearest-name';

export class Registry<T> {
  private readonly items = new Map<string, T>();
  constructor(readonly kind: string) {}

  register(name: string, item: T): this {
    if (this.items.has(name)) throw new Error(`${this.kind} '${name}' is registered twice`);
    this.items.set(name, item);
    return this;
  }
  has(name: string): boolean {
    return this.items.has(name);
  }
  get(name: string): T | undefined {
    return this.items.get(name);
  }
  /** The item, or an error that names the closest known name. */
  require(name: string): T {
    const item = this.items.get(name);
    if (item === undefined) throw new Error(this.unknownMessage(name));
    return item;
  }
  names(): string[] {
    return [...this.items.keys()].sort();
  }
  closestName(name: string): string | undefined {
    return nearestName(name, this.names());
  }
  unknownMessage(name: string): string {
    const near = this.closestName(name);
    return `unknown ${this.kind} '${name}'${near ? ` (closest known: '${near}')` : ''}`;
  }
}
