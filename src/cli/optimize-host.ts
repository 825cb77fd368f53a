// Owns wiring the optimization tools to a running gateway: the optimizer over the store, live promotion and
// revert (overrides re-read, every catalog re-applied, list_changed sent), the server's canonical tools and backends.
import type { SwitchboardSettings } from '../config/index.js';
import type { Gateway } from '../gateway/gateway.js';
import { createBackend } from '../optimize/backends/index.js';
import type { OptimizationToolHost } from '../optimize/mcp-tools.js';
import { DescriptionOverrides } from '../optimize/overrides.js';
import { ruleWith } from '../optimize/rule.js';
import { Optimizer } from '../optimize/service.js';
import { BARE_PROFILE } from '../servers/profile.js';

export function optimizationHost(gateway: Gateway, settings: SwitchboardSettings): OptimizationToolHost | undefined {
  if (!gateway.store) return undefined;
  const rule = ruleWith(settings.optimization.rule);
  const optimizer = new Optimizer({
    repository: gateway.store.optimize,
    rule,
    onChanged: (servers) => {
      if (gateway.descriptions instanceof DescriptionOverrides) gateway.descriptions.reload();
      gateway.descriptionsChanged(servers);
    },
  });
  return {
    optimizer,
    rule,
    backend: (name, context) => createBackend(settings.optimization.backends, name ?? 'retrieval', undefined, context),
    defaults: { candidates: settings.optimization.candidates, repeats: settings.optimization.repeats, backends: ['retrieval', ...settings.optimization.backends.map((b) => b.name)] },
    async canonicalTools(server) {
      if (!gateway.pool.has(server)) throw new Error(`no server "${server}"; configured: ${gateway.pool.keys().join(', ')}`);
      const catalog = gateway.catalogFor(BARE_PROFILE);
      // No session may use this profile, so its connection can be released while it is listed
      // (the listing is then dropped, not stored half-read): list again, a few times at most.
      for (let attempt = 0; attempt < 3 && !catalog.canonical(server); attempt++) await catalog.ensure([server]);
      const listing = catalog.listing(server);
      if (listing.error) throw new Error(`${server}: cannot list its tools: ${listing.error}`);
      if (!catalog.canonical(server)) throw new Error(`${server}: its tools could not be listed (its connection was stopped while listing, three times); try again`);
      return (catalog.canonical(server) ?? []).map((t) => ({ name: t.name as string, description: t.description as string | undefined, inputSchema: t.inputSchema }));
    },
  };
}
