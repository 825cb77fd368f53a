// Owns the catalog's stable hashes: short lowercase base36 digests used in exposed names.
// Pure functions over node:crypto; the same input gives the same output on every run and machine.
import { createHash } from 'node:crypto';

/** Longest digest `shortHash` can return (a 256-bit number has at most 50 base36 digits; keep a margin). */
export const MAX_SHORT_HASH_LENGTH = 40;

/**
 * A stable `length`-character lowercase base36 digest of `input` (SHA-256, UTF-8).
 * Digits are taken from the low end of the digest, where base36 digits are near-uniform.
 */
export function shortHash(input: string, length: number): string {
  if (!Number.isInteger(length) || length < 1 || length > MAX_SHORT_HASH_LENGTH) {
    throw new RangeError(`shortHash length must be an integer from 1 to ${MAX_SHORT_HASH_LENGTH}, got ${length}`);
  }
  const hex = createHash('sha256').update(input, 'utf8').digest('hex');
  return BigInt(`0x${hex}`).toString(36).padStart(50, '0').slice(-length);
}
