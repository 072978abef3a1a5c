// The one place where a request from any transport (IPC or HTTP) is checked and handed to the engine.
import Ajv from 'ajv';
import { isMethodName, paramSchemas, type ApiError, type ApiHandlers, type MethodName } from '../../shared/api';
import type { Caller } from '../../shared/annotate';

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map(
  (Object.keys(paramSchemas) as MethodName[]).map((m) => [m, ajv.compile(paramSchemas[m])] as const),
);

export class ApiRequestError extends Error {
  constructor(
    readonly code: ApiError['code'],
    message: string,
  ) {
    super(message);
  }
}

export type DispatchOutcome = { ok: true; result: unknown } | { ok: false; error: ApiError };

/**
 * Validates method name and params, runs the handler, and turns every failure into an ApiError. `caller` is the
 * person the transport authenticated (absent: Proctor used alone, the OS user).
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
    const handler = handlers[method] as (params: unknown, caller?: Caller) => Promise<unknown>;
    return { ok: true, result: await handler(p, caller) };
  } catch (e) {
    if (e instanceof ApiRequestError) return { ok: false, error: { code: e.code, message: e.message } };
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { code: 'internal', message } };
  }
}
