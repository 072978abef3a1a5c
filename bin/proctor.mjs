#!/usr/bin/env node
// The `proctor` command: runs the engine's CLI from source through tsx, so it works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
// `proctor … | head`: the reader has gone, so stop quietly as Unix tools do rather than crash on EPIPE.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import('../src/main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
