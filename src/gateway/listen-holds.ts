// Owns what open 2026-07-28 `subscriptions/listen` streams keep alive. A stream that listens for
// list changes depends on the running servers of its view; one that listens for resource updates
// depends on the server of each URI. While it is open those downstream connections are held like a
// 2025 session holds its own: the idle release (connection-release.ts) leaves them up. When the
// stream closes the hold goes, and the next idle round may stop them.
import { BARE_PROFILE } from '../servers/profile.js';
import type { ClientScope } from '../views/scope.js';
import { viewIncludes, type View } from './view.js';

interface Hold {
  profileKey: string;
  includes: (serverKey: string) => boolean;
}

export class ListenHolds {
  private readonly holds = new Set<Hold>();

  /** Holds the servers `includes` accepts on a capability profile until `until` aborts. */
  hold(profileKey: string, includes: (serverKey: string) => boolean, until: AbortSignal): void {
    if (until.aborted) return;
    const hold: Hold = { profileKey, includes };
    this.holds.add(hold);
    until.addEventListener('abort', () => void this.holds.delete(hold), { once: true });
  }

  /**
   * A stream that listens for list changes: it hears the changes of one catalog (HTTP: the bare
   * one, what 2026-07-28 clients list; stdio: its connection's) for the servers of its view its
   * client may see, so it holds those.
   */
  holdView(view: View, scope: ClientScope | undefined, until: AbortSignal, profileKey = BARE_PROFILE.key): void {
    this.hold(profileKey, (key) => viewIncludes(view, key) && (!scope || scope.allowsServer(key)), until);
  }

  /** Of `serverKeys`, the ones an open stream holds on a profile. */
  held(profileKey: string, serverKeys: Iterable<string>): Set<string> {
    const held = new Set<string>();
    const holds = [...this.holds].filter((h) => h.profileKey === profileKey);
    if (holds.length === 0) return held;
    for (const key of serverKeys) if (holds.some((h) => h.includes(key))) held.add(key);
    return held;
  }

  /** Open holds (for tests and status). */
  get size(): number {
    return this.holds.size;
  }
}
