// Owns `switchboard toolset list|show|create|delete|equip|unequip|export|import`: saved toolsets in
// the data dir's store. create checks every tool against the live servers; equip takes effect in
// a gateway at its next start (a running one: use the equip-toolset tool on /gateway/mcp).
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { ToolsetService } from '../views/toolsets.js';
import { ToolReferenceError } from '../views/toolset-refs.js';
import { loadContext, openStore, type CommonOptions } from './context.js';
import { printJson, table } from './format.js';
import { UsageError, withInventory } from './inventory.js';

type Options = CommonOptions & { json?: boolean; description?: string; out?: string };

async function withToolsets<T>(options: CommonOptions, body: (service: ToolsetService) => T | Promise<T>): Promise<T> {
  const { dataDir } = await loadContext(options, 'warn');
  const store = openStore(dataDir);
  try {
    return await body(new ToolsetService(store.toolsets, () => undefined));
  } finally {
    store.close();
  }
}

export async function toolsetList(options: Options): Promise<void> {
  await withToolsets(options, (service) => {
    const active = service.active();
    const rows = service.list().map((t) => ({ name: t.name, description: t.description ?? '', tools: t.tools.length, equipped: t.name === active }));
    if (options.json) return printJson(rows);
    if (rows.length === 0) return void process.stdout.write('No toolsets yet. Create one: switchboard toolset create <name> <server.tool> ...\n');
    process.stdout.write(`${table(['NAME', 'TOOLS', 'EQUIPPED', 'DESCRIPTION'], rows.map((r) => [r.name, String(r.tools), r.equipped ? 'yes' : '', r.description]))}\n`);
  });
}

export async function toolsetShow(name: string, options: Options): Promise<void> {
  await withToolsets(options, (service) => {
    const toolset = service.get(name);
    if (!toolset) throw new UsageError(`No toolset named "${name}". Run "switchboard toolset list".`);
    if (options.json) return printJson({ ...toolset, equipped: service.active() === name });
    process.stdout.write(`${toolset.name}${service.active() === name ? ' (equipped)' : ''}${toolset.description ? `: ${toolset.description}` : ''}\n`);
    for (const ref of toolset.tools) process.stdout.write(`  ${ref.server}.${ref.tool}\n`);
  });
}

export async function toolsetCreate(name: string, refs: string[], options: Options): Promise<void> {
  if (refs.length === 0) throw new UsageError('Name at least one tool, as server.tool (run "switchboard tools" to see them).');
  await withInventory(options, async ({ gateway, catalog }) => {
    const service = gateway.toolsets!;
    try {
      const saved = await service.build({ name, description: options.description, tools: refs.map((namespacedName) => ({ namespacedName })) }, catalog, gateway.pool.keys());
      if (options.json) return printJson(saved);
      process.stdout.write(`Saved toolset "${saved.name}" with ${saved.tools.length} tool(s).\n`);
    } catch (error) {
      if (error instanceof ToolReferenceError) throw new UsageError(error.message);
      throw error;
    }
  });
}

export async function toolsetDelete(name: string, options: Options): Promise<void> {
  await withToolsets(options, async (service) => {
    if (!(await service.delete(name))) throw new UsageError(`No toolset named "${name}".`);
    process.stdout.write(`Deleted toolset "${name}".\n`);
  });
}

export async function toolsetEquip(name: string, options: Options): Promise<void> {
  await withToolsets(options, async (service) => {
    try {
      await service.equip(name);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    process.stdout.write(`Equipped "${name}". A running gateway picks it up at its next start; to switch one live, call equip-toolset on /gateway/mcp.\n`);
  });
}

export async function toolsetUnequip(options: Options): Promise<void> {
  await withToolsets(options, async (service) => {
    const previous = await service.unequip();
    process.stdout.write(previous ? `Unequipped "${previous}".\n` : 'No toolset was equipped.\n');
  });
}

const exportFile = z.strictObject({
  toolsets: z.array(
    z.strictObject({
      name: z.string().min(1),
      description: z.string().optional(),
      tools: z.array(z.strictObject({ server: z.string().min(1), tool: z.string().min(1) })),
    }),
  ),
});

export async function toolsetExport(name: string | undefined, options: Options): Promise<void> {
  await withToolsets(options, async (service) => {
    const chosen = name ? [service.get(name)].filter((t) => t !== undefined) : service.list();
    if (name && chosen.length === 0) throw new UsageError(`No toolset named "${name}".`);
    const document = { toolsets: chosen.map((t) => ({ name: t.name, ...(t.description && { description: t.description }), tools: t.tools })) };
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (options.out) {
      await writeFile(options.out, text);
      process.stdout.write(`Wrote ${chosen.length} toolset(s) to ${options.out}.\n`);
    } else process.stdout.write(text);
  });
}

export async function toolsetImport(file: string, options: Options): Promise<void> {
  let parsed: z.infer<typeof exportFile>;
  try {
    parsed = exportFile.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    const detail = error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (error as Error).message;
    throw new UsageError(`${file}: not a toolset export (${detail}). Expected {"toolsets": [{"name", "description"?, "tools": [{"server", "tool"}]}]}.`);
  }
  const { dataDir } = await loadContext(options, 'warn');
  const store = openStore(dataDir);
  try {
    store.db.transaction(() => {
      for (const toolset of parsed.toolsets) store.toolsets.save(toolset);
    })();
  } finally {
    store.close();
  }
  process.stdout.write(`Imported ${parsed.toolsets.length} toolset(s): ${parsed.toolsets.map((t) => t.name).join(', ')}.\n`);
}
