// A lane call's ctx.mcpReq.send (src/gateway/lane-call.ts) relates the server's own request to the
// call in both of the SDK's shapes, (request, schema, options) and (request, options): the related id
// is what routes the request to the call's stream. The server's `request` is recorded, not run.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { relatedSend } from '../../src/gateway/lane-call.js';

describe('lane call: ctx.mcpReq.send', () => {
  it('passes the call id as relatedRequestId with a result schema and without one', async () => {
    const seen: unknown[][] = [];
    const server = { request: (...args: unknown[]) => (seen.push(args), Promise.resolve({})) } as never;
    const send = relatedSend(server, 'call-7');
    const schema = z.looseObject({});
    const signal = new AbortController().signal;
    await send({ method: 'sampling/createMessage', params: {} }, schema, { signal } as never);
    await send({ method: 'roots/list' }, { signal } as never);
    await send({ method: 'roots/list' });
    expect(seen[0]).toEqual([{ method: 'sampling/createMessage', params: {} }, schema, { signal, relatedRequestId: 'call-7' }]);
    expect(seen[1]).toEqual([{ method: 'roots/list' }, { signal, relatedRequestId: 'call-7' }]);
    expect(seen[2]).toEqual([{ method: 'roots/list' }, { relatedRequestId: 'call-7' }]);
  });
});
