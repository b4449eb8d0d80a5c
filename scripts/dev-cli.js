#!/usr/bin/env node
// Development only: runs the CLI from the TypeScript sources through tsx (a devDependency), so tests and
// `npm run bench` exercise src/ without a build. The package's bin (bin/ceilingbench.js) runs dist/.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
