// The local environment kinds: a sandbox display with input and capture (registered as kind `local` in
// ../kinds.ts), and a headless shell for tests and getters.
export {
  createLocalEnvironment,
  type LocalEnvironment,
  type LocalEnvironmentOptions,
} from './local-environment';
export { CHROMIUM_FLAGS, launchChromium } from './browser';
export { localKind, localScreen } from './kind';
export {
  createShellEnvironment,
  type ShellEnvironment,
  type ShellEnvironmentOptions,
} from './shell-environment';
export { startDisplay, accessibilityEnv, type SandboxDisplay, type DisplayOptions } from './display';
export { SandboxHome, SandboxPathError, GUEST_HOME, GUEST_TMP } from './sandbox-home';
export { KEY_NAMES, keySpec, normaliseKeyName, UnknownKeyError } from './keys';
export { compileAction, InvalidActionError, type Primitive } from './primitives';
export { titlePattern, settleWindowGeometry, waitForWindowTitle } from './openers';
