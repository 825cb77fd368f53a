// Owns client tokens: making a new one (shown once) and the hash that is stored instead of it.
import { createHash, randomBytes } from 'node:crypto';

/** A new random token: 256 bits, URL-safe, with a prefix that makes it recognisable in a leak scan. */
export function newToken(): string {
  return `sbt_${randomBytes(32).toString('base64url')}`;
}

/** The stored form of a token: `sha256:<hex>` (tokens are random, so a fast hash does not weaken them). */
export function hashToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** The raw 32-byte digest of a `sha256:<hex>` hash. */
export function digestOf(hash: string): Buffer {
  return Buffer.from(hash.slice('sha256:'.length), 'hex');
}
