// Owns the View: what one client session sees: every server (namespaced), one server (original
// names), the equipped toolset (toolset mode), one fixed toolset, or the gateway's own management
// tools, the meta-tools (meta mode), or auto (passthrough while the catalog is small, else meta).
export type View =
  | { kind: 'all' }
  | { kind: 'server'; server: string }
  | { kind: 'toolset' }
  | { kind: 'fixed-toolset'; name: string }
  | { kind: 'management' }
  | { kind: 'meta' }
  | { kind: 'auto' };

/** What /mcp and the stdio face serve. */
export type Mode = 'passthrough' | 'toolset' | 'meta' | 'auto';
export const MODES: readonly Mode[] = ['passthrough', 'toolset', 'meta', 'auto'];

export function viewForMode(mode: Mode): View {
  if (mode === 'toolset') return TOOLSET_MODE;
  if (mode === 'meta') return META_MODE;
  if (mode === 'auto') return AUTO_MODE;
  return ALL;
}

export const ALL: View = Object.freeze({ kind: 'all' });

export const MANAGEMENT: View = Object.freeze({ kind: 'management' });
export const TOOLSET_MODE: View = Object.freeze({ kind: 'toolset' });
export const META_MODE: View = Object.freeze({ kind: 'meta' });
export const AUTO_MODE: View = Object.freeze({ kind: 'auto' });

/** Whether changes of a server concern a session with this view (toolset views: any server may be in the set). */
export function viewIncludes(view: View, serverKey: string): boolean {
  if (view.kind === 'server') return view.server === serverKey;
  return view.kind !== 'management';
}

export function describeView(view: View): string {
  switch (view.kind) {
    case 'management':
      return 'management tools';
    case 'all':
      return 'all servers';
    case 'server':
      return `server "${view.server}"`;
    case 'toolset':
      return 'the equipped toolset';
    case 'fixed-toolset':
      return `toolset "${view.name}"`;
    case 'meta':
      return 'the meta-tools';
    case 'auto':
      return 'all servers, or the meta-tools above maxTools';
  }
}
