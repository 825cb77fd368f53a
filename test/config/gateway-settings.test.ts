// The gateway is built with the configuration's settings, whole, by every command (not only serve):
// meta-mode settings and input limits included, and its defaults are the settings' defaults.
import { describe, expect, it } from 'vitest';
import { gatewayFor } from '../../src/cli/context.js';
import { DEFAULT_SETTINGS, parseConfig } from '../../src/config/index.js';
import { DEFAULT_GATEWAY_SETTINGS, DEFAULT_META_SETTINGS } from '../../src/gateway/gateway.js';
import { DEFAULT_RESILIENCE } from '../../src/servers/connection.js';

describe('gateway settings come from the configuration, with one set of defaults', () => {
  it('defaults are DEFAULT_SETTINGS, not a second copy', () => {
    const { lazy, ...resilience } = DEFAULT_SETTINGS.resilience;
    expect(DEFAULT_RESILIENCE).toEqual(resilience);
    expect(DEFAULT_GATEWAY_SETTINGS).toMatchObject({
      separator: DEFAULT_SETTINGS.separator,
      nameBudget: DEFAULT_SETTINGS.nameBudget,
      requestTimeoutMs: DEFAULT_SETTINGS.requestTimeoutMs,
      listTimeoutMs: DEFAULT_SETTINGS.listTimeoutMs,
      isolatedIdleMs: DEFAULT_SETTINGS.isolatedIdleMs,
      inputRequiredTtlMs: DEFAULT_SETTINGS.inputRequiredTtlMs,
      lazy,
      resilience,
      limits: DEFAULT_SETTINGS.limits,
    });
    expect(DEFAULT_META_SETTINGS).toEqual({ keepTools: [], maxTools: DEFAULT_SETTINGS.maxTools, maxFallbacks: DEFAULT_SETTINGS.maxFallbacks, tokenBudget: DEFAULT_SETTINGS.tokenBudget, autoRetryFallback: DEFAULT_SETTINGS.autoRetryFallback });
  });

  it('a command\'s gateway has the configured meta settings and limits from construction', async () => {
    const config = parseConfig(
      JSON.stringify({
        mcpServers: { memory: { command: 'node', args: ['-e', ''] } },
        switchboard: { maxFallbacks: 1, maxTools: 7, keepTools: ['memory_read_graph'], autoRetryFallback: true, limits: { maxQueryLength: 50 }, resilience: { retry: { maxAttempts: 2 } } },
      }),
      '/virtual/.mcp.json',
    );
    const gateway = gatewayFor(config, { lazy: false, connectTimeoutMs: 1234 });
    try {
      expect(gateway.meta).toEqual({ keepTools: ['memory_read_graph'], maxTools: 7, maxFallbacks: 1, tokenBudget: DEFAULT_SETTINGS.tokenBudget, autoRetryFallback: true });
      expect(gateway.limits.maxQueryLength).toBe(50);
      expect(gateway.limits.maxJsonDepth).toBe(DEFAULT_SETTINGS.limits.maxJsonDepth);
      expect(gateway.settings.lazy).toBe(false);
      expect(gateway.settings.resilience.connectTimeoutMs).toBe(1234);
      expect(gateway.settings.resilience.retry).toEqual({ ...DEFAULT_SETTINGS.resilience.retry, maxAttempts: 2 });
    } finally {
      await gateway.close();
    }
  });
});
