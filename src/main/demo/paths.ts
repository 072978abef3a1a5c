// Where the bundled demo lives: resources/demo (tasks by app; its served pages are setup/demo-site.ts's).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const demoDir = resolve(projectRoot, 'resources/demo');
