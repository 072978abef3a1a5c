// Where a model lives: base URL, model name and API key, resolved from (first wins) flags, the environment,
// then a config file. The key is kept in memory only; `describeEndpoint` gives what may be shown or stored.
//
// Environment: PROCTOR_BASE_URL (then OPENAI_BASE_URL), PROCTOR_MODEL, PROCTOR_API_KEY (then OPENAI_API_KEY),
// PROCTOR_CONFIG (path of the config file; default ~/.config/proctor/config.json).
// Config file (JSON): {"baseUrl": "...", "model": "...", "apiKey": "...", "prices": {"gpt-4o": {"input": 2.5,
// "output": 10}}, "judge": {…same fields, used by the judge…}, "agent": {…same fields, used by agents…}}.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jsonErrorOffset, lineColOf } from './json-error';
import { priceTableProblems, type PriceTable } from '../price-table';

export interface Endpoint {
  baseUrl: string;
  model: string;
  /** Never printed, logged or stored. */
  apiKey?: string;
}

export type SettingSource = 'flag' | 'env' | 'config' | 'default' | 'none';

export interface ResolvedEndpoint {
  endpoint: Endpoint;
  prices?: PriceTable;
  sources: { baseUrl: SettingSource; model: SettingSource; apiKey: SettingSource };
  /** The config file that was read, if any. */
  configFile?: string;
}

export interface EndpointFlags {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
}

export const defaultBaseUrl = 'https://api.openai.com/v1';

/** A config file that cannot be used; the message names the file and the place. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

interface ConfigFields {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  prices?: PriceTable;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PROCTOR_CONFIG || path.join(os.homedir(), '.config', 'proctor', 'config.json');
}

function fieldsAt(value: unknown, pointer: string, file: string): ConfigFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(`${file} ${pointer || '/'}: must be a JSON object`);
  const v = value as Record<string, unknown>;
  for (const key of ['baseUrl', 'model', 'apiKey'] as const) {
    if (v[key] !== undefined && typeof v[key] !== 'string')
      throw new ConfigError(`${file} ${pointer}/${key}: must be a string`);
  }
  if (v.prices !== undefined) {
    const problems = priceTableProblems(v.prices, `${pointer}/prices`);
    if (problems.length) throw new ConfigError(`${file} ${problems[0]}`);
  }
  return {
    baseUrl: v.baseUrl as string | undefined,
    model: v.model as string | undefined,
    apiKey: v.apiKey as string | undefined,
    prices: v.prices as PriceTable | undefined,
  };
}

/** Reads the config file; `undefined` when it does not exist. `section` (`agent`, `judge`) overrides the top level. */
export function readConfig(file: string, section?: string): ConfigFields | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${file}: cannot read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const offset = jsonErrorOffset(text);
    const where = offset === undefined ? '' : (({ line, col }) => `:${line}:${col}`)(lineColOf(text, offset));
    throw new ConfigError(
      `${file}${where}: not valid JSON (${(error as Error).message}); fix the file or point PROCTOR_CONFIG elsewhere`,
    );
  }
  const top = fieldsAt(json, '', file);
  const sub =
    section && (json as Record<string, unknown>)[section] !== undefined
      ? fieldsAt((json as Record<string, unknown>)[section], `/${section}`, file)
      : {};
  const merged: ConfigFields = { ...top };
  for (const [k, v] of Object.entries(sub)) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  return merged;
}

/** Resolves base URL, model and key: flags, then env, then the config file. Throws ConfigError when no model is named. */
export function resolveEndpoint(
  options: {
    flags?: EndpointFlags;
    env?: NodeJS.ProcessEnv;
    section?: 'agent' | 'judge';
    requireModel?: boolean;
  } = {},
): ResolvedEndpoint {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const file = configPath(env);
  const config = readConfig(file, options.section);

  const pick = (
    flag: string | undefined,
    envValues: (string | undefined)[],
    configValue: string | undefined,
    fallback?: string,
  ) => {
    if (flag) return { value: flag, source: 'flag' as const };
    for (const e of envValues) if (e) return { value: e, source: 'env' as const };
    if (configValue) return { value: configValue, source: 'config' as const };
    if (fallback) return { value: fallback, source: 'default' as const };
    return { value: undefined, source: 'none' as const };
  };
  const baseUrl = pick(
    flags.baseUrl,
    [env.PROCTOR_BASE_URL, env.OPENAI_BASE_URL],
    config?.baseUrl,
    defaultBaseUrl,
  );
  const model = pick(flags.model, [env.PROCTOR_MODEL], config?.model);
  const apiKey = pick(flags.apiKey, [env.PROCTOR_API_KEY, env.OPENAI_API_KEY], config?.apiKey);
  if (!model.value && options.requireModel !== false) {
    throw new ConfigError(`no model named: pass --model, set PROCTOR_MODEL, or put "model" in ${file}`);
  }
  try {
    new URL(baseUrl.value!);
  } catch {
    throw new ConfigError(
      `base URL '${baseUrl.value}' (from ${baseUrl.source}) is not a URL; expected e.g. http://127.0.0.1:8000/v1`,
    );
  }
  return {
    endpoint: { baseUrl: baseUrl.value!, model: model.value ?? '', apiKey: apiKey.value },
    prices: config?.prices,
    sources: { baseUrl: baseUrl.source, model: model.source, apiKey: apiKey.source },
    configFile: config ? file : undefined,
  };
}

/** What may be shown or stored about an endpoint: never the key, only where it came from. */
export function describeEndpoint(
  resolved: Pick<ResolvedEndpoint, 'endpoint' | 'sources'>,
): Record<string, string> {
  return {
    baseUrl: resolved.endpoint.baseUrl,
    model: resolved.endpoint.model,
    apiKey: resolved.endpoint.apiKey ? `set (from ${resolved.sources.apiKey})` : 'not set',
  };
}
