// Owns the View: what one client session sees: every server (namespaced), one server (original
// names), or the gateway's own management tools; toolsets and meta-tools extend this later.
export type View = { kind: 'all' } | { kind: 'server'; server: string } | { kind: 'management' };

export const ALL: View = Object.freeze({ kind: 'all' });

export const MANAGEMENT: View = Object.freeze({ kind: 'management' });

export function viewIncludes(view: View, serverKey: string): boolean {
  return view.kind === 'all' || (view.kind === 'server' && view.server === serverKey);
}

export function describeView(view: View): string {
  if (view.kind === 'management') return 'management tools';
  return view.kind === 'all' ? 'all servers' : `server "${view.server}"`;
}
