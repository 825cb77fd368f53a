import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNameTable, closeMatches, sanitizeName, type NamedEntry, type NameTable } from '../../src/catalog/naming.js';
import { shortHash } from '../../src/catalog/hash.js';

const VALID = /^[A-Za-z][A-Za-z0-9_-]*$/;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const fixturesDir = path.resolve(repoRoot, 'test/fixtures/listings');

const e = (serverKey: string, originalName: string): NamedEntry => ({ serverKey, originalName });

/** Every invariant a table must keep: unique names, both maps agree, entries() covers everything. */
function expectConsistent(table: NameTable, input: NamedEntry[], opts: { budget?: number; valid?: boolean } = {}): void {
  const rows = table.entries();
  expect(rows).toHaveLength(table.size);
  expect(new Set(rows.map((r) => r.exposed)).size).toBe(rows.length);
  for (const row of rows) {
    expect(table.resolve(row.exposed)).toEqual({ serverKey: row.serverKey, originalName: row.originalName });
    expect(table.exposedName(row.serverKey, row.originalName)).toBe(row.exposed);
    if (opts.budget !== undefined) expect(row.exposed.length).toBeLessThanOrEqual(opts.budget);
    if (opts.valid) expect(row.exposed).toMatch(VALID);
  }
  for (const entry of input) expect(table.exposedName(entry.serverKey, entry.originalName)).toBeDefined();
}

/** Small seeded generator so "random" inputs are the same on every run. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const next = rng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('sanitizeName', () => {
  it('replaces dots, slashes, spaces and other punctuation with "_"', () => {
    expect(sanitizeName('files.read')).toBe('files_read');
    expect(sanitizeName('repo/issues/create')).toBe('repo_issues_create');
    expect(sanitizeName('read file now')).toBe('read_file_now');
    expect(sanitizeName('a:b@c#d')).toBe('a_b_c_d');
    expect(sanitizeName('keep-dash_and_Under9')).toBe('keep-dash_and_Under9');
  });

  it('replaces each non-ASCII code point (including astral ones) with a single "_"', () => {
    expect(sanitizeName('café')).toBe('caf_');
    expect(sanitizeName('naïve_tool')).toBe('na_ve_tool');
    expect(sanitizeName('rocket🚀go')).toBe('rocket_go');
    expect(sanitizeName('搜索')).toBe('t__');
  });

  it('makes names start with a letter and never returns an empty name', () => {
    expect(sanitizeName('1password')).toBe('t1password');
    expect(sanitizeName('_private')).toBe('t_private');
    expect(sanitizeName('-x')).toBe('t-x');
    expect(sanitizeName('')).toBe('t');
    for (const raw of ['', '9', '.', '🚀', 'ok']) expect(sanitizeName(raw)).toMatch(VALID);
  });
});

describe('buildNameTable: prefixing', () => {
  it('exposes <serverKey>_<tool> by default and maps both ways', () => {
    const input = [e('github', 'create_issue'), e('github', 'list_issues'), e('memory', 'read_graph')];
    const table = buildNameTable(input);
    expect(table.size).toBe(3);
    expect(table.entries().map((r) => r.exposed)).toEqual(['github_create_issue', 'github_list_issues', 'memory_read_graph']);
    expect(table.resolve('github_create_issue')).toEqual(e('github', 'create_issue'));
    expect(table.exposedName('memory', 'read_graph')).toBe('memory_read_graph');
    expect(table.resolve('create_issue')).toBeUndefined();
    expect(table.exposedName('github', 'nope')).toBeUndefined();
    expect(table.exposedName('nope', 'create_issue')).toBeUndefined();
    expectConsistent(table, input, { budget: 48, valid: true });
  });

  it('orders entries() by server key (first appearance), then input order', () => {
    const input = [e('b', 'one'), e('a', 'two'), e('b', 'three'), e('a', 'four')];
    const table = buildNameTable(input, { separator: '_', budget: 48, prefix: true });
    expect(table.entries().map((r) => r.exposed)).toEqual(['b_one', 'b_three', 'a_two', 'a_four']);
  });

  it('uses a custom separator, sanitizing it when it has invalid characters', () => {
    expect(buildNameTable([e('github', 'create_issue')], { separator: '__' }).exposedName('github', 'create_issue')).toBe(
      'github__create_issue',
    );
    expect(buildNameTable([e('github', 'create_issue')], { separator: '-' }).exposedName('github', 'create_issue')).toBe(
      'github-create_issue',
    );
    expect(buildNameTable([e('github', 'create_issue')], { separator: '.' }).exposedName('github', 'create_issue')).toBe(
      'github_create_issue',
    );
  });

  it('sanitizes server keys and tool names', () => {
    const input = [
      e('my.server', 'files/read file'),
      e('1password', 'get'),
      e('intl', 'recherche_café'),
      e('emoji', '🚀launch'),
    ];
    const table = buildNameTable(input);
    expect(table.exposedName('my.server', 'files/read file')).toBe('my_server_files_read_file');
    expect(table.exposedName('1password', 'get')).toBe('t1password_get');
    expect(table.exposedName('intl', 'recherche_café')).toBe('intl_recherche_caf_');
    expect(table.exposedName('emoji', '🚀launch')).toBe('emoji__launch');
    expect(table.resolve('my_server_files_read_file')).toEqual(e('my.server', 'files/read file'));
    expectConsistent(table, input, { budget: 48, valid: true });
  });

  it('keeps only the first of repeated (serverKey, originalName) pairs', () => {
    const table = buildNameTable([e('s', 'a'), e('s', 'b'), e('s', 'a')]);
    expect(table.size).toBe(2);
    expect(table.entries().map((r) => r.exposed)).toEqual(['s_a', 's_b']);
  });

  it('rejects a budget too small for a hash suffix, saying what it needs', () => {
    expect(() => buildNameTable([e('s', 'a')], { budget: 5 })).toThrow(/at least 6/);
    expect(() => buildNameTable([e('s', 'a')], { budget: 47.5 })).toThrow(RangeError);
    expect(() => buildNameTable([e('s', 'a')], { budget: 6 })).not.toThrow();
  });
});

describe('buildNameTable: length budget', () => {
  const server = 'srv';
  const name48 = 'x'.repeat(48 - server.length - 1);
  const name49 = 'y'.repeat(48 - server.length);

  it('keeps a name of exactly the budget untouched', () => {
    const exposed = buildNameTable([e(server, name48)]).exposedName(server, name48);
    expect(exposed).toBe(`${server}_${name48}`);
    expect(exposed).toHaveLength(48);
  });

  it('cuts a name one over budget to exactly the budget with "_" + a 4-character hash of the full name', () => {
    const exposed = buildNameTable([e(server, name49)]).exposedName(server, name49)!;
    expect(exposed).toHaveLength(48);
    expect(exposed).toMatch(/^srv_y+_[0-9a-z]{4}$/);
    expect(exposed.endsWith(`_${shortHash(`${server}\u0000${name49}`, 4)}`)).toBe(true);
    expect(exposed.startsWith(`${server}_${name49}`.slice(0, 43))).toBe(true);
  });

  it('gives long names sharing a prefix different, stable names within budget', () => {
    const stem = 'get_pull_request_review_comments_for_repository_';
    const input = ['alpha', 'beta', 'gamma', 'delta'].map((s) => e('github', stem + s));
    const first = buildNameTable(input, { budget: 48 });
    const names = input.map((x) => first.exposedName(x.serverKey, x.originalName)!);
    expect(new Set(names).size).toBe(4);
    for (const n of names) expect(n).toHaveLength(48);
    // Same on a second build, with a custom budget and separator, and regardless of unrelated entries and order.
    const unrelated = [e('memory', 'read_graph'), e('github', 'create_issue'), e('fs', 'x'.repeat(90))];
    const again = buildNameTable(shuffled([...unrelated, ...input], 7), { budget: 48 });
    expect(input.map((x) => again.exposedName(x.serverKey, x.originalName))).toEqual(names);
    const custom = buildNameTable(input, { budget: 30, separator: '--' });
    for (const x of input) {
      const n = custom.exposedName(x.serverKey, x.originalName)!;
      expect(n).toHaveLength(30);
      expect(n).toMatch(/--[0-9a-z]{4}$/);
    }
    expectConsistent(custom, input, { budget: 30, valid: true });
  });

  it('keeps every name of a seeded random catalog valid, unique, within budget and order-independent', () => {
    const next = rng(42);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./: éü🚀';
    const chars = [...alphabet];
    const word = (min: number, max: number) =>
      Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => chars[Math.floor(next() * chars.length)]).join('');
    const input: NamedEntry[] = [];
    for (let s = 0; s < 12; s++) {
      const key = word(1, 20);
      for (let t = 0; t < 40; t++) input.push(e(key, `${word(0, 70)}${t}`));
    }
    for (const budget of [48, 20, 64]) {
      const table = buildNameTable(input, { budget });
      expectConsistent(table, input, { budget, valid: true });
      const reordered = buildNameTable(shuffled(input, budget), { budget });
      // Names only depend on order within a collision group; count how many entries kept the same name.
      const same = input.filter((x) => reordered.exposedName(x.serverKey, x.originalName) === table.exposedName(x.serverKey, x.originalName));
      expect(same.length).toBeGreaterThan(input.length * 0.9);
      expect(buildNameTable(input, { budget }).entries()).toEqual(table.entries());
    }
  });
});

describe('mcp__<gatewayKey>__<name> must fit 64 characters', () => {
  const longTool = 'get_pull_request_review_comments_for_repository_with_everything';
  const fits = (gatewayKey: string, budget: number) => {
    const table = buildNameTable([e('github', longTool), e('sequential-thinking', 'sequentialthinking')], { budget });
    return table.entries().map((r) => `mcp__${gatewayKey}__${r.exposed}`);
  };

  it('budget 48 fits gateway keys of up to 9 characters', () => {
    for (const full of fits('switchbrd', 48)) {
      expect(full.length).toBeLessThanOrEqual(64);
      expect(full).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it('a 10-character gateway key leaves 47 (5 + 10 + 2 + 48 = 65), so its budget must be 64 - 17', () => {
    const gatewayKey = 'switchbrd1';
    expect(gatewayKey).toHaveLength(10);
    expect('mcp__'.length + gatewayKey.length + '__'.length + 48).toBe(65);
    const budget = 64 - 'mcp__'.length - gatewayKey.length - '__'.length;
    expect(budget).toBe(47);
    const names = fits(gatewayKey, budget);
    expect(Math.max(...names.map((n) => n.length))).toBe(64);
    for (const full of names) expect(full).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // And the default budget indeed overflows by one for the long tool: documented, not silently assumed.
    expect(Math.max(...fits(gatewayKey, 48).map((n) => n.length))).toBe(65);
  });
});

describe('buildNameTable: collisions', () => {
  it('resolves `a_b` + `c` vs `a` + `b_c` deterministically: first keeps the plain name', () => {
    const input = [e('a_b', 'c'), e('a', 'b_c')];
    const table = buildNameTable(input);
    expect(table.exposedName('a_b', 'c')).toBe('a_b_c');
    expect(table.exposedName('a', 'b_c')).toBe(`a_b_c_${shortHash('a\u0000b_c', 4)}`);
    expect(table.resolve('a_b_c')).toEqual(e('a_b', 'c'));
    expectConsistent(table, input, { budget: 48, valid: true });
    // Input order decides, nothing else.
    const reversed = buildNameTable([...input].reverse());
    expect(reversed.exposedName('a', 'b_c')).toBe('a_b_c');
    expect(reversed.exposedName('a_b', 'c')).toBe(`a_b_c_${shortHash('a_b\u0000c', 4)}`);
    expect(buildNameTable(input).entries()).toEqual(table.entries());
  });

  it('resolves `a-b` + `c` vs `a` + `b-c` with "-" as separator', () => {
    const input = [e('a-b', 'c'), e('a', 'b-c')];
    const table = buildNameTable(input, { separator: '-' });
    expect(table.exposedName('a-b', 'c')).toBe('a-b-c');
    expect(table.exposedName('a', 'b-c')).toMatch(/^a-b-c-[0-9a-z]{4}$/);
    expectConsistent(table, input, { budget: 48, valid: true });
  });

  it('resolves names that collide only after sanitizing', () => {
    const input = [e('fs', 'read.file'), e('fs', 'read/file'), e('fs', 'read file'), e('fs', 'read_file')];
    const table = buildNameTable(input);
    expect(table.exposedName('fs', 'read.file')).toBe('fs_read_file');
    for (const x of input.slice(1)) expect(table.exposedName(x.serverKey, x.originalName)).toMatch(/^fs_read_file_[0-9a-z]{4}$/);
    expectConsistent(table, input, { budget: 48, valid: true });
  });

  it("never takes another entry's plain name for a hash suffix: uses a longer hash instead", () => {
    const h4 = shortHash('s\u0000x_y', 4);
    const input = [e('s', 'x.y'), e('s', 'x_y'), e('s', `x_y_${h4}`)];
    const table = buildNameTable(input);
    expect(table.exposedName('s', 'x.y')).toBe('s_x_y');
    expect(table.exposedName('s', `x_y_${h4}`)).toBe(`s_x_y_${h4}`);
    expect(table.exposedName('s', 'x_y')).toBe(`s_x_y_${shortHash('s\u0000x_y', 5)}`);
    expectConsistent(table, input, { budget: 48, valid: true });
  });

  it('keeps hundreds of colliding names unique, valid and within budget', () => {
    const input = Array.from({ length: 300 }, (_, i) => e('server', `tool${String.fromCodePoint(0x4e00 + i)}name`));
    for (const budget of [48, 16]) {
      const table = buildNameTable(input, { budget });
      expect(table.size).toBe(300);
      expect(table.exposedName('server', input[0].originalName)).toBe('server_tool_name');
      expectConsistent(table, input, { budget, valid: true });
    }
  });

  it('resolves collisions between truncated names within budget', () => {
    const stem = 'z'.repeat(60);
    const input = [e('s', `${stem}.a`), e('s', `${stem}/a`)];
    const table = buildNameTable(input, { budget: 24 });
    expectConsistent(table, input, { budget: 24, valid: true });
    for (const r of table.entries()) expect(r.exposed).toHaveLength(24);
  });
});

describe('buildNameTable: prefix false (per-server endpoints)', () => {
  it('exposes original names untouched, even invalid or long ones', () => {
    const long = 'a_very_long_tool_name_that_is_well_over_the_budget_of_forty_eight';
    const input = [e('fs', 'read.file'), e('fs', 'repo/issues'), e('fs', '1st tool'), e('fs', long), e('fs', 'café')];
    const table = buildNameTable(input, { separator: '_', budget: 48, prefix: false });
    for (const x of input) {
      expect(table.exposedName(x.serverKey, x.originalName)).toBe(x.originalName);
      expect(table.resolve(x.originalName)).toEqual(x);
    }
    expectConsistent(table, input);
  });

  it('still resolves collisions (two servers, one name) without touching the first', () => {
    const input = [e('a', 'search'), e('b', 'search')];
    const table = buildNameTable(input, { prefix: false });
    expect(table.exposedName('a', 'search')).toBe('search');
    expect(table.exposedName('b', 'search')).toBe(`search_${shortHash('b\u0000search', 4)}`);
    expectConsistent(table, input, { budget: 48 });
  });
});

describe('closeMatches', () => {
  const names = [
    'github_create_issue',
    'gitlab_create_issue',
    'github_list_issues',
    'github_get_issue',
    'memory_create_entities',
    'filesystem_read_file',
    'filesystem_read_multiple_files',
    'slack_post_message',
  ];

  it('finds typos (transposition, substitution, missing letter)', () => {
    expect(closeMatches('github_craete_issue', names)[0]).toBe('github_create_issue');
    expect(closeMatches('github_creat_issue', names)[0]).toBe('github_create_issue');
    expect(closeMatches('filesystem_raed_file', names)[0]).toBe('filesystem_read_file');
    expect(closeMatches('slack_post_mesage', names)[0]).toBe('slack_post_message');
  });

  it('finds names whose server prefix is missing', () => {
    expect(closeMatches('create_issue', names).slice(0, 2).sort()).toEqual(['github_create_issue', 'gitlab_create_issue']);
    expect(closeMatches('read_file', names)[0]).toBe('filesystem_read_file');
    expect(closeMatches('post_message', names)).toEqual(['slack_post_message']);
  });

  it('is case-insensitive and tolerates reordered words', () => {
    expect(closeMatches('GitHub_Create_Issue', names)[0]).toBe('github_create_issue');
    expect(closeMatches('GITHUB_LIST_ISSUES', names)[0]).toBe('github_list_issues');
    expect(closeMatches('githubCreateIssue', names)[0]).toBe('github_create_issue');
    expect(closeMatches('issue_create_github', names)[0]).toBe('github_create_issue');
  });

  it('returns nothing for unrelated names, respects max, and is deterministic', () => {
    expect(closeMatches('zzzz', names)).toEqual([]);
    expect(closeMatches('', names)).toEqual([]);
    expect(closeMatches('issue', names, 2)).toHaveLength(2);
    expect(closeMatches('issue', names, 0)).toEqual([]);
    expect(closeMatches('github_issue', names)).toEqual(closeMatches('github_issue', [...names].reverse()));
    expect(closeMatches('create_issue', new Set(names))).toEqual(closeMatches('create_issue', names));
    expect(closeMatches('github_create_issue', [...names, 'github_create_issue'])).toHaveLength(3);
  });
});

describe('fixture catalogs', () => {
  it(`names every tool of ${fixturesDir}/*.tools.json validly, uniquely, within budget and reversibly`, () => {
    const files = readdirSync(fixturesDir).filter((f) => f.endsWith('.tools.json')).sort();
    expect(files.length).toBeGreaterThan(0);
    const input: NamedEntry[] = [];
    for (const file of files) {
      const serverKey = file.slice(0, -'.tools.json'.length);
      const doc = JSON.parse(readFileSync(path.join(fixturesDir, file), 'utf8')) as { tools: Array<{ name: string }> };
      for (const tool of doc.tools) input.push(e(serverKey, tool.name));
    }
    for (const budget of [48, 32, 20]) {
      const table = buildNameTable(input, { separator: '_', budget, prefix: true });
      expect(table.size).toBe(input.length);
      expectConsistent(table, input, { budget, valid: true });
      expect(buildNameTable(shuffled(input, budget), { budget }).entries().sort((a, b) => a.exposed.localeCompare(b.exposed))).toEqual(
        table.entries().sort((a, b) => a.exposed.localeCompare(b.exposed)),
      );
    }
    const perServer = buildNameTable(input.filter((x) => x.serverKey === 'github'), { separator: '_', budget: 48, prefix: false });
    for (const r of perServer.entries()) expect(r.exposed).toBe(r.originalName);
  });
});
