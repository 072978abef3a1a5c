// Environment specs: how a person names the machine a run drives, URL-like, kind first.
//
//   local                          a sandbox display on this machine (size from --screen, default 1920x1080)
//   local:1280x800                 the same at that size
//   osworld://host:5000?token=…    a machine served over OSWorld's VM control protocol
//
// The kind picks a factory in the environments registry (kinds.ts); the rest is the kind's to read. Secrets in
// a spec (a `token` query parameter, a URL password) are never stored: `storableEnvSpec` drops them.

export interface EnvSpec {
  /** The spec as given (trimmed). */
  text: string;
  /** Lower-case kind: `local`, `osworld`, … */
  kind: string;
  /** Everything after `kind:` or `kind://` (empty for a bare kind). */
  rest: string;
  /** The parsed URL when the spec is written `kind://…`. */
  url?: URL;
}

/** A spec that cannot be read; the message names the spec and what is wrong. */
export class EnvSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvSpecError';
  }
}

/** Query parameters that carry secrets, never written to run folders. */
const SECRET_PARAMS = ['token', 'key', 'api_key', 'apikey', 'password', 'secret'];

const MAX_SPEC_LENGTH = 2048;

/** Reads `kind`, `kind:rest` or `kind://rest`; the kind's own syntax is checked by the kind. */
export function parseEnvSpec(text: string): EnvSpec {
  if (typeof text !== 'string')
    throw new EnvSpecError(`an environment spec must be text, not ${JSON.stringify(text)}`);
  const spec = text.trim();
  if (!spec)
    throw new EnvSpecError(
      'the environment spec is empty: give e.g. local, local:1280x800 or osworld://HOST:5000',
    );
  if (spec.length > MAX_SPEC_LENGTH)
    throw new EnvSpecError(`the environment spec is longer than ${MAX_SPEC_LENGTH} characters`);
  if ([...spec].some((c) => c.charCodeAt(0) < 0x20 || /\s/.test(c)))
    throw new EnvSpecError(`the environment spec '${shown(spec)}' holds spaces or control characters`);
  const m = /^([A-Za-z][A-Za-z0-9+.-]*)(?::(\/\/)?(.*))?$/s.exec(spec);
  if (!m)
    throw new EnvSpecError(
      `'${shown(spec)}' is not an environment spec: it starts with a kind, e.g. local, local:1280x800, osworld://HOST:5000`,
    );
  const kind = m[1].toLowerCase();
  const rest = m[3] ?? '';
  if (!m[2]) return { text: spec, kind, rest };
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new EnvSpecError(`the environment spec '${shown(spec)}' is not a valid URL`);
  }
  return { text: spec, kind, rest, url };
}

/** The spec with its secrets dropped, for manifests and stored command lines. */
export function storableEnvSpec(text: string): string {
  let spec: EnvSpec;
  try {
    spec = parseEnvSpec(text);
  } catch {
    return '(unreadable environment spec)';
  }
  if (!spec.url) return spec.text;
  const url = new URL(spec.url.href);
  let changed = false;
  if (url.password) {
    url.password = '';
    changed = true;
  }
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMS.includes(name.toLowerCase())) {
      url.searchParams.delete(name);
      changed = true;
    }
  }
  return changed ? url.href : spec.text;
}

/** A command line with the value of every `--env` made storable (see storableEnvSpec). */
export function storableArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--env' && i + 1 < argv.length) out.push(a, storableEnvSpec(argv[++i]));
    else if (a.startsWith('--env=')) out.push(`--env=${storableEnvSpec(a.slice('--env='.length))}`);
    else out.push(a);
  }
  return out;
}

/** A spec for an error message: secrets dropped, cut short. */
function shown(spec: string): string {
  const s = spec
    .replace(/([?&](?:token|key|api_key|apikey|password|secret)=)[^&#]*/gi, '$1…')
    .replace(/\/\/([^/@]*):[^/@]*@/, '//$1:…@');
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}
