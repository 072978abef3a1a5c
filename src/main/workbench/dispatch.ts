// The one place where a request from any transport (IPC or HTTP) is checked and handed to the engine, and where
// each method's policy (src/shared/api.ts methodPolicies: who may call it, what it reveals) is enforced.
import Ajv from 'ajv';
import { isMethodName, methodPolicies, paramSchemas, type ApiError, type ApiHandlers, type MethodName, type MethodPolicy, type WithheldMethods } from '../../shared/api';
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

/** The blind-review knowledge of the folder each set of handlers serves (createWorkbench registers it). */
const reviews = new WeakMap<ApiHandlers, BlindReview>();

/** Registers what `handlers`' folder knows of blind review; handlers never registered keep every annotator blind. */
export function servingFolder(handlers: ApiHandlers, review: BlindReview): ApiHandlers {
  reviews.set(handlers, review);
  return handlers;
}

const plural: Record<Role, string> = { annotator: 'annotators', reviewer: 'reviewers', lead: 'leads' };
const article = (role: Role) => (role === 'annotator' ? 'an' : 'a');

/** Refuses a caller whose role the policy does not name, or a person of a team asking for secrets. */
export function refusal(method: MethodName, policy: MethodPolicy, caller: Caller, fromTeam: boolean): ApiRequestError | undefined {
  if (!policy.roles.includes(caller.role)) {
    const who = policy.roles.map((r) => plural[r]).join(' and ');
    return new ApiRequestError('forbidden', `${caller.person} is ${article(caller.role)} ${caller.role}: only ${who} may ${policy.does ?? `call ${method}`}`);
  }
  if (fromTeam && policy.reveals.includes('secrets')) return new ApiRequestError('forbidden', `${method} reveals secrets: it is answered only to Proctor's local user`);
  return undefined;
}

const withheld = (method: MethodName): method is WithheldMethods => Object.prototype.hasOwnProperty.call(withholders, method);

/**
 * Validates method name and params, applies the method's policy, runs the handler, withholds what a blind
 * annotator may not see, and turns every failure into an ApiError. `caller` is the person the transport
 * authenticated (absent: Proctor used alone, the OS user).
 */
export async function dispatch(handlers: ApiHandlers, method: unknown, params: unknown, caller?: Caller): Promise<DispatchOutcome> {
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
    const result = await handler(p, caller);
    const review = reviews.get(handlers) ?? blindToAll;
    if (who.role === 'annotator' && withheld(method) && review.team()) {
      const withhold = withholders[method] as (result: unknown, params: unknown, caller: Caller, review: BlindReview) => unknown;
      return { ok: true, result: withhold(result, p, who, review) };
    }
    return { ok: true, result };
  } catch (e) {
    if (e instanceof ApiRequestError) return { ok: false, error: { code: e.code, message: e.message } };
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { code: 'internal', message } };
  }
}
