// A 2026-07-28 client that listens for a resource's updates (`subscriptions/listen` with
// `resourceSubscriptions`) gets `notifications/resources/updated` when the 2025-era downstream reports
// a change of that resource: the gateway subscribes downstream while the stream is open, and
// unsubscribes when it closes; on the HTTP face and on the stdio face (where the SDK's stdio entry
// serves the listen request and the gateway subscribes before it is acknowledged). The downstream is
// the conformance fixture over stdio, whose
// `test_trigger_resource_update` changes test://watched-resource and notifies its subscribers (and
// says whether it had any), so every step is observable without waiting on a clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectStdio, fixtureServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

const WATCHED = 'test://watched-resource';

function modernClient(): Client {
  return new Client({ name: 'listen-resources-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

function text(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join('\n');
}

describe('subscriptions/listen with resource subscriptions, fed by a 2025-era downstream', () => {
  let gateway: RunningGateway;

  let config: string;

  beforeAll(async () => {
    config = await writeConfig({ fixture: fixtureServer('conformance-server.ts', ['--stdio']) });
    gateway = await startHttpGateway(config);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  for (const [endpoint, trigger] of [
    ['/servers/fixture/mcp', 'test_trigger_resource_update'],
    ['/mcp', 'fixture_test_trigger_resource_update'],
  ] as const) {
    it(`${endpoint}: the listener hears the update; after it closes, the downstream has no subscriber left`, { timeout: 60_000 }, async () => {
      const client = modernClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}${endpoint}`)));
      try {
        await listenAndRelease(client, trigger);
      } finally {
        await client.close();
      }
    });
  }

  it('stdio face: the listener hears the update; after it closes, the downstream has no subscriber left', { timeout: 60_000 }, async () => {
    const connected = await connectStdio(config, modernClient());
    try {
      expect(connected.client.getProtocolEra()).toBe('modern');
      await listenAndRelease(connected.client, 'fixture_test_trigger_resource_update');
    } finally {
      await connected.close();
    }
  });
});

/** Listens for the watched resource, hears its update, closes the stream and sees the downstream subscription go. */
async function listenAndRelease(client: Client, trigger: string): Promise<void> {
  const updated: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => void updated.push(notification.params.uri));
  const subscription = await client.listen({ resourceSubscriptions: [WATCHED] });
  expect(subscription.honoredFilter.resourceSubscriptions).toEqual([WATCHED]);

  // The downstream subscription is made before the stream is acknowledged: the trigger reports it had a subscriber.
  expect(text(await client.callTool({ name: trigger, arguments: {} }))).toContain('subscribers notified');
  await waitFor(() => updated.includes(WATCHED), 'notifications/resources/updated on the listen stream');

  await subscription.close();
  await waitFor(async () => !text(await client.callTool({ name: trigger, arguments: {} })).includes('subscribers notified'), 'the downstream subscription to be released');
}
