// Owns the View: what one client session sees. For now every server (namespaced) or one server
// (original names); toolsets and meta-tools extend this later.
export type View = { kind: 'all' } | { kind: 'server'; server: string };

export const ALL: View = Object.freeze({ kind: 'all' });

export function viewIncludes(view: View, serverKey: string): boolean {
  return view.kind === 'all' || view.server === serverKey;
}

export function describeView(view: View): string {
  return view.kind === 'all' ? 'all servers' : `server "${view.server}"`;
}
