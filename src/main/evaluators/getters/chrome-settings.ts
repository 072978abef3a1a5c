// OSWorld's getters for Chrome's settings and extensions (family `browser`; desktop_env/evaluators/getters/
// chrome.py): what the profile's Preferences say, read through the Environment's files, with OSWorld's answers
// kept as they are — strings "true" / "false", and the "Google" OSWorld returns whenever reading fails in the
// getters that end in it. chrome_appearance_mode_ui asks the settings page over DevTools first. The page and URL
// getters live in chrome-pages.ts and chrome-urls.ts (loaded from here).
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';
import type { GradingContext } from '../getter';
import { profileDirs, profileFile } from './chrome-profile';
import { pyTruthy } from './chrome-python';
import { withNewTab } from './chrome-session';
import './chrome-pages';
import './chrome-urls';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The profile's Preferences as a JSON object; undefined when missing or unreadable (where OSWorld's json.loads
 * or its first `.get` raises). */
async function preferences(spec: GetterSpec, ctx: GradingContext): Promise<Json | undefined> {
  const file = await profileFile(spec, ctx, ['Preferences']);
  if (!file) return undefined;
  try {
    const v = JSON.parse(file.data.toString('utf8')) as unknown;
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `data.get(key, {})` as Python reads it: the value, `{}` when absent; undefined when `data` is no object
 * (Python raises). */
function get(data: unknown, key: string): unknown {
  if (!isObject(data)) return undefined;
  return key in data ? data[key] : {};
}

/** enable_do_not_track — "true" when Preferences' enable_do_not_track is truthy, else "false" (also when the
 * file is missing). */
async function enableDoNotTrack(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const prefs = await preferences(spec, ctx);
  return prefs && pyTruthy(get(prefs, 'enable_do_not_track')) ? 'true' : 'false';
}

/** enable_safe_browsing — "true" when safebrowsing.enhanced or safebrowsing.enabled is truthy, else "false".
 * Chrome writes neither while they keep their defaults, so an untouched profile reads "false" (as in OSWorld). */
async function enableSafeBrowsing(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const sb = get(await preferences(spec, ctx), 'safebrowsing');
  if (!isObject(sb)) return 'false';
  return pyTruthy(sb.enhanced) || pyTruthy(sb.enabled) ? 'true' : 'false';
}

/** new_startup_page — "true" when Preferences has no `session` (a fresh profile) or session.restore_on_startup is
 * 5 (open the New Tab page), else "false"; "Google" when the file is missing or unreadable (OSWorld's fallback). */
async function newStartupPage(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const prefs = await preferences(spec, ctx);
  if (!prefs) return 'Google';
  if (!('session' in prefs)) return 'true';
  const session = prefs.session;
  if (!isObject(session)) return 'Google';
  return session.restore_on_startup === 5 ? 'true' : 'false';
}

/** Each entry of Preferences' extensions.settings through `pick`; "Google" when the file is missing or an entry
 * lacks the field (OSWorld's KeyError fallback). */
async function extensionSettings(
  spec: GetterSpec,
  ctx: GradingContext,
  pick: (entry: Json) => unknown,
): Promise<unknown> {
  const prefs = await preferences(spec, ctx);
  const settings = get(get(prefs, 'extensions'), 'settings');
  if (!isObject(settings)) return 'Google';
  const out: unknown[] = [];
  for (const entry of Object.values(settings)) {
    const v = isObject(entry) ? pick(entry) : undefined;
    if (v === undefined) return 'Google';
    out.push(v);
  }
  return out;
}

/** find_unpacked_extension_path — the `path` of every extension in Preferences' extensions.settings (component
 * extensions included); "Google" when one has none or the file is missing. */
async function findUnpackedExtensionPath(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return extensionSettings(spec, ctx, (e) => ('path' in e ? e.path : undefined));
}

/** find_installed_extension_name — the manifest name of every extension in extensions.settings; "Google" when one
 * has no manifest name or the file is missing. Chromium does not keep the manifest of an unpacked extension in
 * Preferences, so with one loaded this is "Google" — as OSWorld's reading gives. */
async function findInstalledExtensionName(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return extensionSettings(spec, ctx, (e) => {
    const m = e.manifest;
    return isObject(m) && 'name' in m ? m.name : undefined;
  });
}

/** data_delete_automacally (OSWorld's spelling) — "true" when Preferences' profile.default_content_setting_values
 * is present and not null, "false" when absent; "Google" when there is no `profile` or no file. */
async function dataDeleteAutomatically(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const prefs = await preferences(spec, ctx);
  if (!prefs || !('profile' in prefs)) return 'Google';
  const profile = prefs.profile;
  if (!isObject(profile)) return 'Google';
  const v = profile.default_content_setting_values;
  return v !== undefined && v !== null ? 'true' : 'false';
}

/** OSWorld's reading of a colour-scheme preference value: "system", "light", "dark" or undefined. */
function colorSchemeName(raw: unknown): string | undefined {
  if (typeof raw === 'string') {
    const s = raw.trim().toLowerCase();
    if (['system', 'default', '0'].includes(s)) return 'system';
    if (['light', '1'].includes(s)) return 'light';
    if (['dark', '2'].includes(s)) return 'dark';
    return undefined;
  }
  if (typeof raw === 'boolean') return raw ? 'light' : 'system';
  if (typeof raw === 'number')
    return ({ 0: 'system', 1: 'light', 2: 'dark' } as Record<number, string>)[Math.trunc(raw)];
  return undefined;
}

/** The mode a Preferences object gives: browser.theme.color_scheme2 (else color_scheme); "light" whenever
 * extensions.theme.system_theme is 0 / "0" / false; "system" otherwise. */
function modeOfPreferences(data: Json): string {
  const theme = get(get(data, 'browser'), 'theme');
  const raw = isObject(theme)
    ? 'color_scheme2' in theme
      ? theme.color_scheme2
      : theme.color_scheme
    : undefined;
  const flag = get(get(data, 'extensions'), 'theme');
  const systemTheme = isObject(flag) ? flag.system_theme : undefined;
  if (systemTheme === 0 || systemTheme === '0' || systemTheme === false) return 'light';
  return colorSchemeName(raw) ?? 'system';
}

/** OSWorld's file reading of the colour scheme: up to five looks a second apart at each profile's Preferences
 * (Chrome writes them a moment after a change), "light" as soon as one says so, else the last mode found. */
async function colorSchemeFromFiles(spec: GetterSpec, ctx: GradingContext): Promise<string> {
  const dirs = await profileDirs(spec, ctx).catch(() => [] as string[]);
  let final = 'system';
  for (let round = 0; round < 5; round++) {
    let best: string | undefined;
    for (const dir of dirs) {
      const data = await ctx.env.getFile(`${dir}/Preferences`).catch(() => undefined);
      if (!data) continue;
      let mode: string;
      try {
        const v = JSON.parse(data.toString('utf8')) as unknown;
        if (!isObject(v)) continue;
        mode = modeOfPreferences(v);
      } catch {
        continue;
      }
      if (mode === 'light' || mode === 'dark') {
        best = mode;
        break;
      }
      best ??= mode;
    }
    if (best !== undefined) {
      final = best;
      if (best === 'light') return 'light';
    }
    if (round < 4) await new Promise((r) => setTimeout(r, 1000));
  }
  return final;
}

/** The settings page's own state: its prefs object (the theme preferences) and the selected controls' text. */
const appearanceProbe = `(() => {
  const lower = (s) => String(s ?? '').toLowerCase();
  const wanted = new Set(['prefs.browser.theme.color_scheme', 'prefs.browser.theme.color_scheme2', 'prefs.extensions.theme.system_theme']);
  const modes = [];
  try {
    const ui = document.querySelector('settings-ui');
    const seen = new Set();
    const walk = (o, path) => {
      if (!o || typeof o !== 'object' || seen.has(o)) return;
      seen.add(o);
      if (Object.prototype.hasOwnProperty.call(o, 'value') && wanted.has(lower(path))) {
        const v = o.value;
        if (lower(path).endsWith('system_theme')) {
          if (v === 0 || v === '0' || v === false) modes.push('light');
          if (v === 1 || v === '1' || v === true) modes.push('dark');
        } else {
          if (v === 1 || v === '1' || lower(v) === 'light') modes.push('light');
          if (v === 2 || v === '2' || lower(v) === 'dark') modes.push('dark');
          if (v === 0 || v === '0' || ['system', 'default', 'device'].includes(lower(v))) modes.push('system');
        }
      }
      for (const [k, v] of Object.entries(o)) walk(v, path ? path + '.' + k : k);
    };
    walk(ui && ui.prefs ? ui.prefs : null, 'prefs');
  } catch (e) {}
  try {
    const roots = [document];
    const collect = (root) => { for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { roots.push(el.shadowRoot); collect(el.shadowRoot); } };
    collect(document);
    for (const r of roots) {
      for (const el of r.querySelectorAll('[selected],[checked],[aria-checked="true"],option:checked')) {
        const t = lower((el.innerText || el.textContent || '').trim());
        if (!t) continue;
        if (t.includes('light')) modes.push('light');
        else if (t.includes('dark')) modes.push('dark');
        else if (t.includes('device') || t.includes('system') || t.includes('default')) modes.push('system');
      }
    }
  } catch (e) {}
  return modes.includes('light') ? 'light' : modes.includes('dark') ? 'dark' : modes.includes('system') ? 'system' : null;
})()`;

/**
 * chrome_appearance_mode_ui — "light", "dark" or "system" as chrome://settings/appearance shows it: its theme
 * preferences (color_scheme / color_scheme2; extensions.theme.system_theme 0 reads "light", 1 "dark") and its
 * selected controls, light first. Without a browser, or when the page tells nothing, OSWorld's file reading of
 * Preferences (chrome_color_scheme) answers.
 */
async function chromeAppearanceModeUi(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  if (ctx.env.browserEndpoint()) {
    const mode = await withNewTab(ctx, spec.type, async (s) => {
      await s.goto('chrome://settings/appearance', 'interactive', 30_000);
      await new Promise((r) => setTimeout(r, 2500));
      return s.evaluate(appearanceProbe);
    }).catch(() => undefined);
    if (mode === 'light' || mode === 'dark' || mode === 'system') return mode;
  }
  return colorSchemeFromFiles(spec, ctx);
}

const files = ['files', 'commands'] as const;
registerFamilyGetter('browser', 'enable_do_not_track', [...files], enableDoNotTrack);
registerFamilyGetter('browser', 'enable_safe_browsing', [...files], enableSafeBrowsing);
registerFamilyGetter('browser', 'new_startup_page', [...files], newStartupPage);
registerFamilyGetter('browser', 'find_unpacked_extension_path', [...files], findUnpackedExtensionPath);
registerFamilyGetter('browser', 'find_installed_extension_name', [...files], findInstalledExtensionName);
registerFamilyGetter('browser', 'data_delete_automacally', [...files], dataDeleteAutomatically);
registerFamilyGetter('browser', 'chrome_appearance_mode_ui', ['devtools', ...files], chromeAppearanceModeUi);
