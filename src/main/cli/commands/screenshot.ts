// `proctor screenshot`: capture an X display (or another environment, --env) to a PNG or JPEG file.
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { envUsage } from '../env-option';
import { openEnvironment, readDisplayFlags, type DisplayFlags } from './act';

const usage = `Usage: proctor screenshot -o <file.png|file.jpg> [--display :N | --user-display] [--quality Q]
                          [--max-width W] [--backend nut|screenshot-desktop] [--width W --height H]
                          [--env SPEC]

Captures the display (nut.js grab + sharp by default). Without --display, a fresh sandbox display is started
and stopped afterwards. The format follows the file extension; --quality (1..100) is for JPEG.

  --env SPEC   the machine: ${envUsage('             ')}`;

export const command: CliCommand = {
  name: 'screenshot',
  summary: 'capture an X display to a PNG or JPEG file',
  usage,
  async run(argv, io) {
    const flags: DisplayFlags = { userDisplay: false };
    let out: string | undefined;
    let quality = 80;
    let maxWidth: number | undefined;
    let backend: 'nut' | 'screenshot-desktop' | undefined;
    readDisplayFlags(argv, flags, (a, value) => {
      if (a === '-o' || a === '--output') out = value();
      else if (a === '--quality') quality = Number(value());
      else if (a === '--max-width') maxWidth = Number(value());
      else if (a === '--backend') {
        const b = value();
        if (b !== 'nut' && b !== 'screenshot-desktop') throw new UsageError(`--backend is nut or screenshot-desktop, got '${b}'`);
        backend = b;
      } else return false;
      return true;
    });
    if (!out) throw new UsageError('give the output file with -o');
    if (!Number.isInteger(quality) || quality < 1 || quality > 100) throw new UsageError('--quality must be a whole number 1..100');
    if (maxWidth !== undefined && (!Number.isInteger(maxWidth) || maxWidth < 1)) throw new UsageError('--max-width must be a positive whole number');
    const ext = extname(out).toLowerCase();
    const format = ext === '.jpg' || ext === '.jpeg' ? 'jpeg' : ext === '.png' ? 'png' : undefined;
    if (!format) throw new UsageError(`the output file must end in .png, .jpg or .jpeg, got '${out}'`);
    const { env, where } = await openEnvironment(flags, io, backend ? { captureBackend: backend } : {});
    try {
      const shot = await env.screenshot({ format, quality, maxWidth });
      await writeFile(out, shot.data);
      io.out(`${out}: ${shot.width}x${shot.height} ${shot.format} of ${where}${shot.toScreen !== 1 ? ` (x${shot.toScreen} to screen pixels)` : ''}`);
      return 0;
    } catch (e) {
      io.err(`proctor screenshot: ${(e as Error).message}`);
      return 1;
    } finally {
      await env.close();
    }
  },
};
