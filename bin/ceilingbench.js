#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npm ci` is the only setup step (no build).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
