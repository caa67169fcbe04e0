#!/usr/bin/env node
// The `loggerhead` command. Sources are TypeScript, run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
