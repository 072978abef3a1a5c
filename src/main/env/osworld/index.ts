// The osworld environment kind: Proctor as a client of OSWorld's VM control protocol (osworld-protocol.md).
export {
  createOsworldEnvironment,
  waitUntilReady,
  type OsworldEnvironment,
  type OsworldEnvironmentOptions,
  type ProctorServerInfo,
} from './osworld-environment';
export {
  parseOsworldSpec,
  formatOsworldSpec,
  redactToken,
  OsworldSpecError,
  OSWORLD_DEFAULT_PORT,
  OSWORLD_DEVTOOLS_PORT,
  type OsworldSpec,
} from './spec';
export { parseAccessibilityXml, AccessibilityXmlError } from './accessibility-xml';
export { OsworldHttpError, DEFAULT_TIMING, type OsworldTiming } from './http-client';
export { OsworldActionError, PYAUTOGUI_PREFIX } from './pyautogui-code';
export { osworldKind } from './kind';

import {
  createOsworldEnvironment,
  type OsworldEnvironment,
  type OsworldEnvironmentOptions,
} from './osworld-environment';
import { parseOsworldSpec } from './spec';

/** The environment a spec names (`osworld://host:port?token=…`), with further options (timing, readiness). */
export function createOsworldEnvironmentFromSpec(
  spec: string,
  extra: Omit<OsworldEnvironmentOptions, 'host' | 'port' | 'token'> = {},
): Promise<OsworldEnvironment> {
  const s = parseOsworldSpec(spec);
  return createOsworldEnvironment({
    ...extra,
    host: s.host,
    port: s.port,
    token: s.token,
    browserEndpoint: extra.browserEndpoint ?? s.browserEndpoint,
  });
}
