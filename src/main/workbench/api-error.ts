// An error a handler or the dispatcher raises on purpose: its code crosses the transport (400, 403, 404).
import type { ApiError } from '../../shared/api';

export class ApiRequestError extends Error {
  constructor(
    readonly code: ApiError['code'],
    message: string,
  ) {
    super(message);
  }
}
