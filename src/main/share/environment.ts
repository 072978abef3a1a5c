// The environment a bundle describes: this machine's OS and application versions (a registry of probes), and
// what the run itself recorded (Proctor version, machine, screen size, environment spec, grading profile).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { arch, platform, release } from 'node:os';
import { proctorVersion } from '../version';
import { onPath } from '../tasks/needs';

/** How to ask an application its version: program and arguments; the first line of the output is kept. */
export const versionProbes: Record<string, string[]> = {
  libreoffice: ['soffice', '--version'],
  chromium: ['chromium', '--version'],
  ffmpeg: ['ffmpeg', '-version'],
  thunderbird: ['thunderbird', '--version'],
  gimp: ['gimp', '--version'],
  sqlite3: ['sqlite3', '--version'],
  mousepad: ['mousepad', '--version'],
};

export interface EnvironmentDescription {
  describedAt: string;
  os: { platform: string; release: string; arch: string; distribution?: string };
  node: string;
  proctorVersion: string;
  /** Version line per application of `versionProbes`; null when it is not installed here. */
  applications: Record<string, string | null>;
  /** What the run recorded about where it ran. */
  run: {
    proctorVersion?: string;
    machine?: unknown;
    env?: string;
    screen?: { width: number; height: number };
    /** Profiles the run's rule verdicts were graded under, and `--grading-profile` when the run was given one. */
    gradingProfiles: string[];
    gradingProfileFlag?: string;
  };
}

function probe(argv: string[]): Promise<string | null> {
  if (!onPath(argv[0])) return Promise.resolve(null);
  return new Promise((ok) => {
    execFile(
      argv[0],
      argv.slice(1),
      { timeout: 15_000, env: { ...process.env, DISPLAY: '' } },
      (error, stdout, stderr) => {
        const line = `${stdout}\n${stderr}`
          .split('\n')
          .map((l) => l.trim())
          .find((l) => /\d/.test(l) && !/^\(|warning|error/i.test(l));
        ok(line ?? (error ? null : ''));
      },
    );
  });
}

function distribution(): string | undefined {
  if (!existsSync('/etc/os-release')) return undefined;
  const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
  return m?.[1];
}

export async function describeEnvironment(
  run: EnvironmentDescription['run'],
): Promise<EnvironmentDescription> {
  const names = Object.keys(versionProbes);
  const versions = await Promise.all(names.map((n) => probe(versionProbes[n])));
  return {
    describedAt: new Date().toISOString(),
    os: { platform: platform(), release: release(), arch: arch(), distribution: distribution() },
    node: process.version,
    proctorVersion,
    applications: Object.fromEntries(names.map((n, i) => [n, versions[i]])),
    run,
  };
}
