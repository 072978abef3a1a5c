// `proctor screenshot`: capture an X display (or another environment, --env) to a PNG or JPEG file.
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { displayFlagsOf, displayOptions, openEnvironment } from './act';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';

const options = optionTable({
  output: {
    kind: 'string',
    short: 'o',
    value: 'FILE',
    complete: 'file',
    help: 'the file to write: .png, .jpg or .jpeg',
  },
  quality: {
    kind: 'string',
    value: 'Q',
    default: 80,
    help: 'JPEG quality, 1..100 (default 80)',
    parse: (v: string) => {
      const q = Number(v);
      if (!Number.isInteger(q) || q < 1 || q > 100)
        throw new UsageError('--quality must be a whole number 1..100');
      return q;
    },
  },
  'max-width': {
    kind: 'string',
    value: 'W',
    help: 'downscale a wider capture to W pixels',
    parse: (v: string) => {
      const w = Number(v);
      if (!Number.isInteger(w) || w < 1) throw new UsageError('--max-width must be a positive whole number');
      return w;
    },
  },
  backend: {
    kind: 'string',
    value: 'B',
    complete: ['nut', 'screenshot-desktop'],
    help: 'nut (default) or screenshot-desktop',
    parse: (v: string): 'nut' | 'screenshot-desktop' => {
      if (v !== 'nut' && v !== 'screenshot-desktop')
        throw new UsageError(`--backend is nut or screenshot-desktop, got '${v}'`);
      return v;
    },
  },
  ...displayOptions,
});

const usage = usageText(
  `Usage: proctor screenshot -o <file.png|file.jpg> [--display :N | --user-display] [--quality Q]
                          [--max-width W] [--backend nut|screenshot-desktop] [--width W --height H]
                          [--env SPEC]

Captures the display (nut.js grab + sharp by default). Without --display, a fresh sandbox display is started
and stopped afterwards. The format follows the file extension; --quality (1..100) is for JPEG.`,
  options,
);

export const command: CliCommand = {
  name: 'screenshot',
  summary: 'capture an X display to a PNG or JPEG file',
  usage,
  options,
  async run(argv, io) {
    const { values } = parseOptions(options, argv, { positionals: false });
    const flags = displayFlagsOf(values);
    const { output: out, quality, backend } = values;
    const maxWidth = values['max-width'];
    if (!out) throw new UsageError('give the output file with -o');
    const ext = extname(out).toLowerCase();
    const format = ext === '.jpg' || ext === '.jpeg' ? 'jpeg' : ext === '.png' ? 'png' : undefined;
    if (!format) throw new UsageError(`the output file must end in .png, .jpg or .jpeg, got '${out}'`);
    const { env, where } = await openEnvironment(flags, io, backend ? { captureBackend: backend } : {});
    try {
      const shot = await env.screenshot({ format, quality, maxWidth });
      await writeFile(out, shot.data);
      io.out(
        `${out}: ${shot.width}x${shot.height} ${shot.format} of ${where}${shot.toScreen !== 1 ? ` (x${shot.toScreen} to screen pixels)` : ''}`,
      );
      return 0;
    } catch (e) {
      io.err(`proctor screenshot: ${(e as Error).message}`);
      return 1;
    } finally {
      await env.close();
    }
  },
};
