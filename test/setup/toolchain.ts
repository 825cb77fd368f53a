// Vitest global setup: installs the test-only toolchain (Node 22, the conformance suite, the
// Inspector) into tools/node22 before any test runs, so `npm test` on a fresh clone has it and a
// user's `npm install` never fetches it. A no-op when it is already installed.
import { ensureToolchain } from '../../scripts/test-toolchain.mjs';

export default function setup(): void {
  ensureToolchain();
}
