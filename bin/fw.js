#!/usr/bin/env node
import { runFw } from '../dist/cli/main.js';

process.exitCode = await runFw(process.argv.slice(2), { interrupt: true });
