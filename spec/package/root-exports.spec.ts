import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as root from '../../lib/index.js';

// The root entry is what an application calls: about 25 values. Internals (the HTTP layer,
// tuning constants, the error constructors of the request parser) are imported by path inside
// this repository and are not part of the package's promise. Adding a root export is a decision:
// change this list on purpose (prefer a subpath for anything framework- or test-specific).
const ROOT_VALUES = [
  'ApiTokenProvider',
  'CHANNELS',
  'CLIENT_SECRET',
  'LIVE_BASE_URL',
  'PlatformBearerStrategy',
  'PlatformClient',
  'PlatformCode',
  'PlatformError',
  'SANDBOX_BASE_URL',
  'SecretBox',
  'accessDenied',
  'createAuthenticator',
  'extractBearerToken',
  'fingerprint',
  'fromEnv',
  'isPlatformError',
  'platformErrorHandler',
  'problemResponse',
  'requireGameUser',
  'resolvePlatformConfig',
  'sendProblem',
  'silentLogger',
];

const NOT_FROM_ROOT = [
  'PlatformHttp', 'authenticateRequest', 'KEEP_ALIVE_IDLE_MS', 'INVALID_TOKEN_RUN_LENGTH', 'INVALID_TOKEN_RUN_WINDOW_MS',
  'RENEWAL_RETRY_MS', 'RENEWAL_RETRY_MAX_MS', 'E1_PATH', 'ConfigurationBackoff', 'MAX_REQUEST_BYTES',
  'SimulatedClient', 'PcSdkSimulator', 'startEmulator',
];

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the root entry point', () => {
  it('exports exactly the values applications call', () => {
    expect(Object.keys(root).sort()).toEqual([...ROOT_VALUES].sort());
    expect(Object.keys(root).length).toBeLessThanOrEqual(30);
  });

  it('exports none of the internals', () => {
    for (const name of NOT_FROM_ROOT) expect(Object.keys(root)).not.toContain(name);
  });

  it('documents every exported value with TSDoc where it is declared', () => {
    const program = ts.createProgram([path.join(ROOT, 'lib', 'index.ts')], {
      module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, types: [], lib: ['lib.es2023.d.ts'], skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const entry = program.getSourceFile(path.join(ROOT, 'lib', 'index.ts'))!;
    const undocumented: string[] = [];
    for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const docs = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      if (docs === '') undocumented.push(exported.getName());
    }
    expect(undocumented).toEqual([]);
  }, 60_000);

  it('ships the simulated game clients in the testkit subpath, not in the emulator', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./testkit']).toEqual({ types: './dist/testkit/index.d.ts', default: './dist/testkit/index.js' });
    const emulatorEntry = readFileSync(path.join(ROOT, 'lib', 'emulator', 'index.ts'), 'utf8');
    expect(emulatorEntry).not.toMatch(/SimulatedClient|PcSdkSimulator/);
  });
});
