// Owns a lane call's early answer. The relay lane that took a tools/call (stdio-fast-calls.ts) puts
// on the call's context (lane-request.ts) a way to answer it at once; the session hands that down to
// the server's request only where the server's result is the call's answer as it stands: a forwarded
// tool whose result is not a tool error (those may get fallback suggestions or a retry) and fits the
// result bound (the call gate cuts one that does not). The client then has its answer as soon as the
// result is read, and the call's promise chain and bookkeeping (breaker, recording, metrics) run
// after the write instead of before it.
import type { ServerContext } from '@modelcontextprotocol/server';
import { boundResult } from './input-limits.js';
import { LaneRequest } from './lane-request.js';

type Result = Record<string, unknown>;

/**
 * What answers ctx's call at once with a server's result that nothing after would change, or
 * undefined when the call came another way than a lane that answers early.
 */
export function earlyAnswerFor(ctx: ServerContext, maxResultChars: number): ((result: Result) => void) | undefined {
  const answer = LaneRequest.answerOf(ctx.mcpReq);
  if (!answer) return undefined;
  return (result) => {
    if (result.isError === true || boundResult(result, maxResultChars) !== result) return;
    answer(result);
  };
}
