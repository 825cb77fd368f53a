// Owns the View: what one client session sees: every server (namespaced), one server (original
// names), the equipped toolset (toolset mode), one fixed toolset, or the gateway's own management
// tools; meta-tools extend this later.
export type View =
  | { kind: 'all' }
  | { kind: 'server'; server: string }
  | { kind: 'toolset' }
  | { kind: 'fixed-toolset'; name: string }
  | { kind: 'management' };

/** What /mcp and the stdio face serve. */
export type Mode = 'passthrough' | 'toolset';

export function viewForMode(mode: Mode): View {
  return mode === 'toolset' ? TOOLSET_MODE : ALL;
}

export const ALL: View = Object.freeze({ kind: 'all' });

export const MANAGEMENT: View = Object.freeze({ kind: 'management' });
export const TOOLSET_MODE: View = Object.freeze({ kind: 'toolset' });

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
  }
}
