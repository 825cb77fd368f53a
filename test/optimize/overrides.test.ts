// DescriptionOverrides against a real SQLite store: canonical capture with content hash, precedence (settings
// override > live promotion > canonical), stale detection when the server changes a promoted tool, and that
// nothing but `description` can differ.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash, openDatabase, type Store } from '../../src/store/index.js';
import { DescriptionOverrides } from '../../src/optimize/overrides.js';
import { withDescription } from '../../src/catalog/overlay.js';

const stores: Store[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
function store(): Store {
  const s = openDatabase(mkdtempSync(path.join(os.tmpdir(), 'sb-overrides-')));
  stores.push(s);
  return s;
}

const echo = { name: 'echo', description: 'Echoes input', inputSchema: { type: 'object', properties: { message: { type: 'string' } } }, annotations: { readOnlyHint: true }, title: 'Echo' };

describe('DescriptionOverrides', () => {
  it('captures canonical tools with their content hash and applies a promotion', () => {
    const s = store();
    const overrides = new DescriptionOverrides({ repository: s.optimize });
    expect(overrides.apply('srv', [echo])).toEqual([echo]);
    expect(s.optimize.canonical('srv', 'echo')!.hash).toBe(contentHash('tools', echo));
    s.optimize.promote({ server: 'srv', tool: 'echo', description: 'Returns the message unchanged.', canonicalHash: contentHash('tools', echo), forced: true });
    overrides.reload();
    const [shown] = overrides.apply('srv', [echo]);
    expect(shown.description).toBe('Returns the message unchanged.');
    expect(overrides.effective('srv', echo).source).toBe('promotion');
  });

  it('settings overrides win over promotions', () => {
    const s = store();
    s.optimize.saveCanonical('srv', 'echo', contentHash('tools', echo), echo);
    s.optimize.promote({ server: 'srv', tool: 'echo', description: 'promoted', canonicalHash: contentHash('tools', echo), forced: false });
    const overrides = new DescriptionOverrides({ repository: s.optimize, descriptions: { srv: { echo: 'from settings' } } });
    expect(overrides.apply('srv', [echo])[0].description).toBe('from settings');
    expect(overrides.setDescriptions({})).toEqual(['srv']);
    expect(overrides.apply('srv', [echo])[0].description).toBe('promoted');
  });

  it('marks a promotion stale when the server changes the tool, serves the canonical text, and reports it', () => {
    const s = store();
    const stale: string[] = [];
    const overrides = new DescriptionOverrides({ repository: s.optimize, onStale: (p, reason) => stale.push(`${p.server}.${p.tool}: ${reason}`) });
    overrides.apply('srv', [echo]);
    s.optimize.promote({ server: 'srv', tool: 'echo', description: 'promoted', canonicalHash: contentHash('tools', echo), forced: false });
    overrides.reload();
    const changed = { ...echo, inputSchema: { type: 'object', properties: { message: { type: 'string' }, loud: { type: 'boolean' } } } };
    expect(overrides.apply('srv', [changed])[0]).toBe(changed);
    expect(stale).toHaveLength(1);
    expect(stale[0]).toContain('the server changed srv.echo after the promotion');
    const promotion = s.optimize.promotion('srv', 'echo')!;
    expect(promotion.stale).toBe(true);
    expect(promotion.staleReason).toContain('hash');
    expect(s.optimize.canonical('srv', 'echo')!.hash).toBe(contentHash('tools', changed));
    // A fresh process reads the stale flag and keeps serving the canonical text.
    expect(new DescriptionOverrides({ repository: s.optimize }).apply('srv', [changed])[0].description).toBe('Echoes input');
  });

  it('withDescription changes the description and nothing else (every other field is the same value)', () => {
    const shown = withDescription(echo, 'new');
    expect(shown.description).toBe('new');
    for (const key of Object.keys(echo).filter((k) => k !== 'description')) expect(shown[key]).toBe((echo as Record<string, unknown>)[key]);
    expect(Object.keys(shown).sort()).toEqual(Object.keys(echo).sort());
    expect(echo.description).toBe('Echoes input');
  });
});
