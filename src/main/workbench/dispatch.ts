// The one place where a request from any transport (IPC or HTTP) is checked and handed to the engine, and where
// each method's policy (src/shared/api.ts methodPolicies: who may call it, what it reveals) is enforced.
import Ajv from 'ajv';
import { resolve, sep } from 'node:path';
import {
  isMethodName,
  methodPolicies,
  paramSchemas,
  type ApiError,
  type ApiHandlers,
  type MethodName,
  type MethodPolicy,
  type WithheldMethods,
} from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import type { Role } from '../../shared/run';
import { localCaller } from '../annotate/team';
import { ApiRequestError } from './api-error';
import { blindToAll, withholders, type BlindReview } from './blind-review';

export { ApiRequestError };

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map(
  (Object.keys(paramSchemas) as MethodName[]).map((m) => [m, ajv.compile(paramSchemas[m])] as const),
);

export type DispatchOutcome = { ok: true; result: unknown } | { ok: false; error: ApiError };

/** The folder each set of handlers serves and its blind-review knowledge (createWorkbench registers them). */
const folders = new WeakMap<ApiHandlers, { review: BlindReview; root?: string }>();

/**
 * Registers what `handlers`' folder knows of blind review, and the folder itself (a person of a team is answered
 * with paths below it made relative); handlers never registered keep every annotator blind.
 */
export function servingFolder(handlers: ApiHandlers, review: BlindReview, root?: string): ApiHandlers {
  folders.set(handlers, { review, ...(root ? { root: resolve(root) } : {}) });
  return handlers;
}

/**
 * `value` with the served folder's place on the engine's machine left out of every string: `<root>/a/b` becomes
 * `a/b`, the root itself `.` (paths that travel to a person of a team are relative to what is served).
 */
export function withoutHostRoot<T>(value: T, root: string): T {
  const strip = (s: string): string =>
    s === root
      ? '.'
      : s.startsWith(root + sep)
        ? s.slice(root.length + 1)
        : s.includes(root)
          ? s.replaceAll(root + sep, '').replaceAll(root, '.')
          : s;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return strip(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

const plural: Record<Role, string> = { annotator: 'annotators', reviewer: 'reviewers', lead: 'leads' };
const article = (role: Role) => (role === 'annotator' ? 'an' : 'a');

/** Refuses a caller whose role the policy does not name, or a person of a team asking for secrets. */
export function refusal(
  method: MethodName,
  policy: MethodPolicy,
  caller: Caller,
  fromTeam: boolean,
): ApiRequestError | undefined {
  if (!policy.roles.includes(caller.role)) {
    const who = policy.roles.map((r) => plural[r]).join(' and ');
    return new ApiRequestError(
      'forbidden',
      `${caller.person} is ${article(caller.role)} ${caller.role}: only ${who} may ${policy.does ?? `call ${method}`}`,
    );
  }
  if (fromTeam && policy.reveals.includes('secrets'))
    return new ApiRequestError(
      'forbidden',
      `${method} reveals secrets: it is answered only to Proctor's local user`,
    );
  return undefined;
}

const withheld = (method: MethodName): method is WithheldMethods =>
  Object.prototype.hasOwnProperty.call(withholders, method);

/**
 * Validates method name and params, applies the method's policy, runs the handler, withholds what a blind
 * annotator may not see, and turns every failure into an ApiError. `caller` is the person the transport
 * authenticated (absent: Proctor used alone, the OS user).
 */
export async function dispatch(
  handlers: ApiHandlers,
  method: unknown,
  params: unknown,
  caller?: Caller,
): Promise<DispatchOutcome> {
  if (!isMethodName(method)) {
    return { ok: false, error: { code: 'bad_request', message: `unknown method '${String(method)}'` } };
  }
  const validate = validators.get(method)!;
  const p = params ?? {};
  if (!validate(p)) {
    const detail = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    return { ok: false, error: { code: 'bad_request', message: `${method}: invalid params: ${detail}` } };
  }
  try {
    const who = caller ?? localCaller();
    const refused = refusal(method, methodPolicies[method], who, caller !== undefined);
    if (refused) throw refused;
    const handler = handlers[method] as (params: unknown, caller?: Caller) => Promise<unknown>;
    const answered = await handler(p, caller);
    const folder = folders.get(handlers);
    const review = folder?.review ?? blindToAll;
    // A person of a team (a caller the transport authenticated) sees paths relative to the served folder.
    const result = caller !== undefined && folder?.root ? withoutHostRoot(answered, folder.root) : answered;
    if (who.role === 'annotator' && withheld(method) && review.team()) {
      const withhold = withholders[method] as (
        result: unknown,
        params: unknown,
        caller: Caller,
        review: BlindReview,
      ) => unknown;
      return { ok: true, result: withhold(result, p, who, review) };
    }
    return { ok: true, result };
  } catch (e) {
    const root = caller !== undefined ? folders.get(handlers)?.root : undefined;
    const hide = (m: string) => (root ? withoutHostRoot(m, root) : m);
    if (e instanceof ApiRequestError) return { ok: false, error: { code: e.code, message: hide(e.message) } };
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { code: 'internal', message: hide(message) } };
  }
}
