#!/usr/bin/env node
// `npm run checks`: the type check, the lint and the copy-paste check. The type check and the
// lint share one TypeScript program: typed lint rules would otherwise build the same program a
// second time, and ask its checker again for types the type check has just worked out (about
// 14 s of CPU on a clean cache). jscpd runs beside them in its own process.
// Exit status 1 when any of the three finds something; each prints what it found.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { ESLint } from 'eslint';
import ts from 'typescript';

const LINTED = ['lib', 'spec', 'bench', 'example-app', 'examples'];
const BUILD_INFO = 'node_modules/.cache/typecheck.tsbuildinfo';

const cpd = new Promise((resolve) => {
  const child = spawn('npm', ['run', '--silent', 'cpd'], { stdio: 'inherit' });
  child.once('error', (error) => { process.stderr.write(`cannot run jscpd: ${error.message}\n`); resolve(false); });
  child.once('close', (code) => resolve(code === 0));
});

/** The type check, as `npm run typecheck` does it (tsconfig.json, incremental, no emit): the program, and whether it passed. */
function typecheck() {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } };
  const parsed = ts.getParsedCommandLineOfConfigFile('tsconfig.json', { noEmit: true, incremental: true, tsBuildInfoFile: BUILD_INFO }, host);
  const builder = ts.createIncrementalProgram({ rootNames: parsed.fileNames, options: parsed.options, configFileParsingDiagnostics: parsed.errors });
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(), ...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(), ...builder.getSemanticDiagnostics(),
  ];
  builder.emit(); // with noEmit, writes the build info only
  if (diagnostics.length > 0) {
    const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
    process.stdout.write(`\ntypecheck: ${diagnostics.length} error(s)\n`);
  }
  return { program: builder.getProgram(), passed: diagnostics.length === 0 };
}

/** `npm run lint`, on the type check's program: zero errors and zero warnings. */
async function lint(program) {
  const eslint = new ESLint({
    cache: true,
    cacheLocation: 'node_modules/.cache/eslintcache',
    // The cache keys its entries by the config as JSON: the program is named, not serialized.
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { programs: Object.assign([program], { toJSON: () => ['tsconfig.json'] }) } } }],
  });
  const results = await eslint.lintFiles(LINTED);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  if (text) process.stdout.write(text);
  return results.every((r) => r.errorCount === 0 && r.warningCount === 0 && r.fatalErrorCount === 0);
}

const { program, passed: typed } = typecheck();
const linted = await lint(program);
const copies = await cpd;
process.stdout.write(`typecheck: ${typed ? 'passed' : 'FAILED'}; lint: ${linted ? 'passed' : 'FAILED'}; cpd: ${copies ? 'passed' : 'FAILED'}\n`);
process.exitCode = typed && linted && copies ? 0 : 1;
