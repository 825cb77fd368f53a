// Owns the one error every part of a login problem turns into: a downstream server refused us with
// a terminal 401 (no stored token, the refresh failed, or a fresh token was refused again) and only
// `switchboard login <server>` can fix it. Also recognises it (and the SDK's own 401 errors) however
// deeply the transport wrapped it.
import { SdkError, SdkErrorCode, UnauthorizedError } from '@modelcontextprotocol/client';

/** The sentence users see, in the client's error and in `switchboard servers`. */
export function loginHint(serverKey: string): string {
  return `${serverKey} needs a login: run switchboard login ${serverKey}`;
}

export class LoginRequiredError extends Error {
  override readonly name = 'LoginRequiredError';

  constructor(
    readonly serverKey: string,
    /** Why (for logs): "no stored login", "the refresh token was refused: invalid_grant", ... */
    readonly reason: string,
  ) {
    super(loginHint(serverKey));
  }
}

/** A terminal authentication failure anywhere in `error`'s cause chain. */
export function isLoginRequired(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof LoginRequiredError || (e as Error).name === 'LoginRequiredError') return true;
    if (e instanceof UnauthorizedError) return true;
    if (e instanceof SdkError && e.code === SdkErrorCode.ClientHttpAuthentication) return true;
  }
  return false;
}

/** The reason carried by a LoginRequiredError in the chain, else a description of the 401. */
export function loginReason(error: unknown): string {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof LoginRequiredError) return e.reason;
  }
  return (error as Error)?.message ?? String(error);
}
