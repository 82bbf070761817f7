import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, PLATFORM_HOSTS, environmentOfBaseUrl } from '../config/index.js';
import type { PlatformEnvProblem, PlatformSettingName } from '../config/index.js';
import type { CheckLine } from './output.js';
import type { PlatformSettings } from './platform-settings.js';

// Doctor's wording of the library reader's verdicts: the CLI decides nothing itself,
// so it accepts exactly what fromEnv and the client accept.

function problemOf(s: PlatformSettings, setting: PlatformSettingName): PlatformEnvProblem | undefined {
  return s.problems.find((problem) => problem.setting === setting);
}

function quoted(problem: PlatformEnvProblem, otherwise: string): string {
  return problem.got === undefined ? `${problem.source} ${otherwise}` : `${problem.source} is "${problem.got}"`;
}

function baseUrlLine(s: PlatformSettings, problem: PlatformEnvProblem): CheckLine {
  const name = 'Platform';
  const source = problem.source;
  switch (problem.kind) {
    case 'not_http_url':
      return { name, ok: false, detail: `${source} is not an http(s) URL`, fix: `set ${source} to the platform's base URL, e.g. ${PLATFORM_HOSTS.sandbox} (Sandbox) or http://127.0.0.1:4010 (an emulator).` };
    case 'credentials':
    case 'query_or_fragment':
      return { name, ok: false, detail: `${source} holds credentials, a query or a fragment`, fix: `set ${source} to the bare base URL (scheme, host, port, path); credentials go in PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET.` };
    case 'mixed_hosts': {
      const host = environmentOfBaseUrl(s.values.baseUrl ?? '') ?? 'other';
      const envSource = s.sources.environment;
      return { name, ok: false, detail: `${source} is the ${host} host but ${envSource} says ${s.values.environment ?? ''}`, fix: `Live and Sandbox keys are never mixed: make ${source} and ${envSource} agree, or unset one.` };
    }
    default:
      return { name, ok: false, detail: 'not set', fix: 'set PLATFORM_ENV=live or PLATFORM_ENV=sandbox, or PLATFORM_BASE_URL for an emulator (or pass --env / --base-url).' };
  }
}

function locationCheck(s: PlatformSettings): CheckLine {
  const name = 'Platform';
  const envProblem = problemOf(s, 'environment');
  if (envProblem !== undefined) {
    return { name, ok: false, detail: quoted(envProblem, 'is not live or sandbox'), fix: `set ${envProblem.source} to live or sandbox.` };
  }
  const urlProblem = problemOf(s, 'baseUrl');
  if (urlProblem !== undefined) return baseUrlLine(s, urlProblem);
  const { baseUrl, environment } = s.values;
  if (baseUrl !== undefined) {
    const label = environment !== undefined ? `, ${environment} credentials (${s.sources.environment})` : '';
    return { name, ok: true, detail: `${baseUrl} (from ${s.sources.baseUrl}${label})` };
  }
  if (environment === undefined) return baseUrlLine(s, { setting: 'baseUrl', source: s.sources.baseUrl, kind: 'location_required', rule: '', message: '' });
  return { name, ok: true, detail: `${environment}: ${PLATFORM_HOSTS[environment]} (from ${s.sources.environment})` };
}

function requiredCheck(s: PlatformSettings, setting: 'clientId' | 'clientSecret' | 'gameId', name: string, what: string): CheckLine {
  const source = s.sources[setting];
  const problem = problemOf(s, setting);
  if (problem?.kind === 'required') {
    const how = source === 'PLATFORM_CLIENT_SECRET' ? 'set PLATFORM_CLIENT_SECRET, or pipe it in with --client-secret-stdin' : `set ${source}`;
    return { name, ok: false, detail: 'not set', fix: `${how} to ${what}.` };
  }
  if (problem !== undefined) {
    return { name, ok: false, detail: quoted(problem, problem.rule), fix: `set ${source} to ${what}; it ${problem.rule}.` };
  }
  const value = setting === 'clientSecret' ? 'set (hidden)' : s.values[setting];
  return { name, ok: true, detail: `${value} (from ${source})` };
}

function timeoutCheck(s: PlatformSettings): CheckLine {
  const name = 'Timeout';
  const problem = problemOf(s, 'timeoutMs');
  if (problem !== undefined) {
    return { name, ok: false, detail: quoted(problem, problem.rule), fix: `set ${problem.source} to a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or unset it for the default.` };
  }
  const ms = s.values.timeoutMs;
  if (ms === undefined) return { name, ok: true, detail: `default (${DEFAULT_TIMEOUT_MS} ms per attempt)` };
  return { name, ok: true, detail: `${ms} ms per attempt (from ${s.sources.timeoutMs})` };
}

/** Doctor's configuration lines, one per setting, each with its fix when wrong. */
export function checkPlatformSettings(s: PlatformSettings): CheckLine[] {
  const { instanceId } = s.values;
  return [
    locationCheck(s),
    requiredCheck(s, 'clientId', 'Client ID', 'the client_id issued for this environment'),
    requiredCheck(s, 'clientSecret', 'Client secret', 'the client_secret issued with the client_id'),
    requiredCheck(s, 'gameId', 'Game ID', 'the Game ID the credentials were issued for (E1 service_id)'),
    instanceId === undefined
      ? { name: 'Instance ID', ok: true, detail: 'not set (every server of this client_id shares one API token)' }
      : { name: 'Instance ID', ok: true, detail: `${instanceId} (from ${s.sources.instanceId})` },
    timeoutCheck(s),
  ];
}
