// JSON Schemas that carry their TypeScript type: one declaration gives both what a transport validates (ajv reads
// the plain object) and the type the code sees (`Infer<typeof schema>`), so the two cannot drift. Only the
// keywords the contract uses; the type is a compile-time brand with no runtime key. Pure: no Node, no DOM.

declare const valueType: unique symbol;
declare const resultType: unique symbol;

/** A JSON Schema accepting values of type `T`. */
export type Schema<T> = { readonly [valueType]?: T } & { readonly [keyword: string]: unknown };

/** The type of the values a schema accepts. */
export type Infer<S> = S extends { readonly [valueType]?: infer T } ? T : never;

/** A type with no schema (what a method answers: the engine writes it, nobody validates it). */
export type Returns<T> = { readonly [resultType]?: T };
export type ReturnOf<R> = R extends { readonly [resultType]?: infer T } ? T : never;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type Properties = Record<string, Schema<unknown>>;
type ObjectOf<P extends Properties, R extends keyof P> = Flatten<
  { [K in R]-?: Infer<P[K]> } & { [K in Exclude<keyof P, R>]?: Infer<P[K]> }
>;

const schema = <T>(s: Record<string, unknown>): Schema<T> => s as Schema<T>;

/** A string; `maxLength` defaults to 4096 (every string a person or a UI sends is bounded). */
export function string(
  opts: { minLength?: number; maxLength?: number; pattern?: string } = {},
): Schema<string> {
  return schema({ type: 'string', maxLength: 4096, ...opts });
}

export function integer(opts: { minimum?: number; maximum?: number } = {}): Schema<number> {
  return schema({ type: 'integer', ...opts });
}

export function boolean(): Schema<boolean> {
  return schema({ type: 'boolean' });
}

/** One of the values listed. */
export function oneOf<const V extends readonly (string | number)[]>(values: V): Schema<V[number]> {
  return schema({ enum: [...values] });
}

export function array<T>(items: Schema<T>, opts: { minItems?: number; maxItems?: number } = {}): Schema<T[]> {
  return schema({ type: 'array', items, ...opts });
}

/** An object with these properties and no others; those named in `required` must be present. */
export function object<P extends Properties, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
): Schema<ObjectOf<P, R[number]>> {
  return schema({ type: 'object', properties, required: [...(required ?? [])], additionalProperties: false });
}

/** An object whose keys are some of `keys` (at least `minProperties`), each value of one schema. */
export function someOf<const K extends readonly string[], T>(
  keys: K,
  value: Schema<T>,
  opts: { minProperties?: number } = {},
): Schema<Partial<Record<K[number], T>>> {
  return schema({
    type: 'object',
    properties: Object.fromEntries(keys.map((k) => [k, value])),
    additionalProperties: false,
    ...opts,
  });
}

/** The type a method answers with: a marker for the type checker only. */
export function returns<T>(): Returns<T> {
  return {};
}
