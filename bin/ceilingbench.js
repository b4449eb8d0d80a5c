#!/usr/bin/env node
// The installed command: plain Node running the built JavaScript in dist/ (no loader, no TypeScript).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('ceilingbench: dist/ is missing — in a source checkout run `npm run build` first\n');
  process.exit(2);
}
await import(main.href);
