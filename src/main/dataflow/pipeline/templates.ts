// Template documents per app: a folder <root>/<app>/ with the documents, description.json {file: text} and
// screenshots images/<file>.jpg. The chooser is given the descriptions, the screenshots labelled by their own file
// name (upstream defect 3) and the task text (never the task's file name: defect 2); its answer must be a key.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../demo/paths';
import type { OfficeApp } from './task';

export const defaultTemplatesRoot = resolve(projectRoot, 'resources/dataflow/templates');

export interface TemplateSet {
  app: OfficeApp;
  folder: string;
  /** file name → description, in the file's order. */
  descriptions: Record<string, string>;
  /** file name → its screenshot (images/<file>.jpg or .png), for the templates that have one. */
  images: Record<string, string>;
}

/** The templates of `app` under `root`; throws naming the file and what to fix. */
export function loadTemplates(app: OfficeApp, root = defaultTemplatesRoot): TemplateSet {
  const folder = join(root, app);
  const file = join(folder, 'description.json');
  if (!existsSync(file))
    throw new Error(
      `${file}: no template descriptions for ${app} (make the folder with description.json {"<document>": "<what it holds>"})`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${file}: expected an object {"<document>": "<description>"}`);
  const descriptions: Record<string, string> = {};
  for (const [name, text] of Object.entries(parsed)) {
    if (typeof text !== 'string') throw new Error(`${file}: /${name} must be a string description`);
    if (name.includes('/') || name.includes('\\') || name.startsWith('.'))
      throw new Error(`${file}: /${name} must be a file name in ${folder}`);
    if (!existsSync(join(folder, name)))
      throw new Error(`${file}: /${name} is described but ${join(folder, name)} does not exist`);
    descriptions[name] = text;
  }
  if (!Object.keys(descriptions).length) throw new Error(`${file}: no templates described`);
  const images: Record<string, string> = {};
  for (const name of Object.keys(descriptions)) {
    const image = ['.jpg', '.png']
      .map((ext) => join(folder, 'images', `${name}${ext}`))
      .find((f) => existsSync(f));
    if (image) images[name] = image;
  }
  return { app, folder, descriptions, images };
}
