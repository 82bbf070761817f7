#!/usr/bin/env node
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
import { runCli } from './run-cli.js';

// The bin entry: all behaviour is in runCli, which never throws.
void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then((status) => {
  process.exitCode = status;
});
