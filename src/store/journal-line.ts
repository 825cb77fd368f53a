// Owns the call journal's line format: one JSON array per call, fields in a fixed order
// [server, tool, session, startedAt, durationMs, outcome, errorClass, errorMessage, resultBytes, correlationId,
// identity], absent ones null (identity: ''), ending in \n. Encoding runs on the path of every call, between the server's answer
// and the client's, where the CPU caches are cold: the quoted server, tool and session are kept from
// call to call, and the numbers are written straight into one template.
import { storedMessage } from './metrics-repository.js';
import type { CallRecord } from './types.js';

const json = (value: string | null | undefined): string => (value === undefined || value === null ? 'null' : JSON.stringify(value));
const number = (value: number | null | undefined): string => (value === undefined || value === null || !Number.isFinite(value) ? 'null' : String(value));

export class LineEncoder {
  /** `["server","tool",` by server, then tool. */
  private readonly heads = new Map<string, Map<string, string>>();
  private lastSession: string | undefined = undefined;
  private lastSessionJson = 'null';
  private lastIdentity: string | undefined = undefined;
  private lastIdentityJson = '""';

  encode(call: CallRecord): string {
    let tools = this.heads.get(call.server);
    if (tools === undefined) {
      if (this.heads.size > 1000) this.heads.clear(); // bounded: servers come from the config
      tools = new Map();
      this.heads.set(call.server, tools);
    }
    let head = tools.get(call.tool);
    if (head === undefined) {
      if (tools.size > 10_000) tools.clear(); // bounded: tool names come from servers
      head = `[${JSON.stringify(call.server)},${JSON.stringify(call.tool)},`;
      tools.set(call.tool, head);
    }
    if (call.session !== this.lastSession) {
      this.lastSession = call.session;
      this.lastSessionJson = json(call.session);
    }
    if (call.identity !== this.lastIdentity) {
      this.lastIdentity = call.identity;
      this.lastIdentityJson = JSON.stringify(call.identity ?? '');
    }
    const failure = call.errorClass === undefined && call.errorMessage === undefined ? 'null,null' : `${json(call.errorClass)},${json(storedMessage(call.errorMessage))}`;
    return `${head}${this.lastSessionJson},${Math.trunc(call.startedAt)},${call.durationMs},"${call.outcome}",${failure},${number(call.resultBytes)},${json(call.correlationId)},${this.lastIdentityJson}]\n`;
  }
}
