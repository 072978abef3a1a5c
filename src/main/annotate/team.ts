// The team file: who may label, review and settle in a served folder, each with a role and a token. Tokens are
// random, shown once when a person is added, and stored only as SHA-256 hashes (they are 192-bit random, so a
// plain hash is as good as a slow one). The file lives in `<root>/.proctor/team.json`, which is never served.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { Caller } from '../../shared/annotate';
import type { Role } from '../../shared/run';
import { writeFileAtomic } from '../store';

export const roles: readonly Role[] = ['annotator', 'reviewer', 'lead'];

export interface TeamMember {
  name: string;
  role: Role;
  /** SHA-256 of the token, hex. */
  tokenSha256: string;
  addedAt: string;
}

export interface TeamFile {
  people: TeamMember[];
}

export const teamFileOf = (root: string) => join(root, '.proctor', 'team.json');

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const namePattern = /^[\p{L}\p{N}][\p{L}\p{N}._ -]{0,63}$/u;

/** The team of a served folder; undefined when it has none. Throws, naming the file and place, when malformed. */
export function readTeam(root: string): TeamFile | undefined {
  const file = teamFileOf(root);
  if (!existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not readable JSON (${(e as Error).message})`, { cause: e });
  }
  const people = (value as Partial<TeamFile> | null)?.people;
  if (!Array.isArray(people)) throw new Error(`${file}: /people must be a list`);
  people.forEach((p: Partial<TeamMember>, i) => {
    if (typeof p?.name !== 'string' || !namePattern.test(p.name))
      throw new Error(`${file}: /people/${i}/name is missing or not a name`);
    if (!roles.includes(p.role as Role))
      throw new Error(`${file}: /people/${i}/role must be one of ${roles.join(', ')}`);
    if (typeof p.tokenSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(p.tokenSha256))
      throw new Error(`${file}: /people/${i}/tokenSha256 must be 64 hex digits`);
  });
  return { people: people as TeamMember[] };
}

/** Adds a person (or gives an existing one a new token and role); returns the token, which is not stored. */
export async function addTeamMember(root: string, name: string, role: Role): Promise<string> {
  if (!namePattern.test(name))
    throw new Error(
      `'${name}' is not a usable name: letters and digits, then also . _ - and spaces, at most 64`,
    );
  const team = readTeam(root) ?? { people: [] };
  const token = randomBytes(24).toString('base64url');
  const member: TeamMember = { name, role, tokenSha256: hashOf(token), addedAt: new Date().toISOString() };
  const at = team.people.findIndex((p) => p.name === name);
  if (at >= 0) team.people[at] = member;
  else team.people.push(member);
  const file = teamFileOf(root);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify(team, null, 2) + '\n');
  return token;
}

/** The person a token belongs to, compared in constant time against every stored hash. */
export function personOfToken(team: TeamFile, token: string | undefined): Caller | undefined {
  if (!token) return undefined;
  const h = Buffer.from(hashOf(token), 'hex');
  let found: TeamMember | undefined;
  for (const p of team.people) if (timingSafeEqual(h, Buffer.from(p.tokenSha256, 'hex'))) found = p;
  return found ? { person: found.name, role: found.role } : undefined;
}

/** The person when Proctor is used alone (Electron, or serve on loopback without a team): the OS user, a lead. */
export function localCaller(): Caller {
  let name = 'me';
  try {
    name = userInfo().username || name;
  } catch {
    /* no passwd entry (containers): keep the placeholder */
  }
  return { person: name, role: 'lead' };
}
