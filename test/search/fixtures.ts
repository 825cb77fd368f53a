// Loads the fixture servers' real tool lists (test/fixtures/listings/*.tools.json, vendored in the
// repo) as ToolDocs keyed `<server>_<tool>`, the gateway's exposed names.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolDoc } from '../../src/search/index.js';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/listings/', import.meta.url));

export function fixtureTools(): ToolDoc[] {
  const docs: ToolDoc[] = [];
  for (const file of readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.tools.json')).sort()) {
    const server = file.replace(/\.tools\.json$/, '');
    const listing = JSON.parse(readFileSync(FIXTURE_DIR + file, 'utf8')) as { tools: Array<{ name: string; title?: string; description?: string; inputSchema?: unknown }> };
    for (const t of listing.tools) {
      docs.push({ key: `${server}_${t.name}`, server, name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema });
    }
  }
  return docs;
}
