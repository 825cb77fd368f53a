// Owns the 2026-07-28 answer to "this request needs a capability the client did not declare"
// (-32021 MissingRequiredClientCapability, HTTP 400) when the server behind the gateway speaks the
// 2025 era. Such a server never gets a client request it cannot make: the gateway's connection
// declared only what the client declared, so the server's SDK refuses to send it and says so in its
// answer instead. Two refusals are recognized, both written by the MCP SDKs themselves: the SDK v2
// legacy shim's ("Cannot request input 'KEY' (METHOD): the client on this 2025-era connection did
// not declare the required capability", an isError tool result or a -32603 error), and the
// capability check of either SDK ("Client does not support sampling (required for
// sampling/createMessage)"). For a 2026-07-28 client they become -32021 naming the capability;
// a 2025-era client gets the server's answer as it came.
import { MissingRequiredClientCapabilityError, type ClientCapabilities } from '@modelcontextprotocol/server';
import { REVERSE_METHOD_CAPABILITY } from '../servers/profile.js';

type Result = Record<string, unknown>;

const REFUSALS = [
  /^Cannot request input '[^']*' \((sampling\/createMessage|elicitation\/create|roots\/list)\): the client on this 2025-era connection did not declare the required capability/,
  /Client does not support (?:sampling|elicitation|listing roots) \(required for (sampling\/createMessage|elicitation\/create|roots\/list)\)/,
];

/** The capability an SDK's refusal text names (undefined for any other text). */
export function refusedCapability(text: string): keyof ClientCapabilities | undefined {
  for (const refusal of REFUSALS) {
    const method = refusal.exec(text)?.[1];
    if (method) return REVERSE_METHOD_CAPABILITY[method];
  }
  return undefined;
}

/** The -32021 error for a refusal, keeping the server's words as its message. */
function missing(capability: keyof ClientCapabilities, text: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { [capability]: {} } },
    `Missing required client capability "${capability}": the server needs it for this request and the request did not declare it (${text})`,
  );
}

/** An isError result whose only text is a refusal. */
function refusalIn(result: Result): { capability: keyof ClientCapabilities; text: string } | undefined {
  if (result.isError !== true || !Array.isArray(result.content) || result.content.length !== 1) return undefined;
  const [block] = result.content as Array<{ type?: unknown; text?: unknown }>;
  if (block?.type !== 'text' || typeof block.text !== 'string') return undefined;
  const capability = refusedCapability(block.text);
  return capability && { capability, text: block.text };
}

/**
 * A 2026-07-28 client's forwarded request: a refusal for a missing capability (as a result, or as
 * the -32603 error the shim gives for prompts and resources) becomes -32021; anything else as it came.
 */
export async function withMissingCapabilityError(answer: Promise<Result>): Promise<Result> {
  let result: Result;
  try {
    result = await answer;
  } catch (error) {
    const failure = error as { code?: unknown; message?: unknown };
    const capability = failure.code === -32603 && typeof failure.message === 'string' ? refusedCapability(failure.message.replace(/^MCP error -?\d+: /, '')) : undefined;
    if (capability) throw missing(capability, failure.message as string);
    throw error;
  }
  const refusal = refusalIn(result);
  if (refusal) throw missing(refusal.capability, refusal.text);
  return result;
}
