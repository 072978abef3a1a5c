// Proctor's own server of OSWorld's VM control protocol (`proctor env serve`); see server.ts.
export { startGuestServer, isLoopback, type GuestServer, type GuestServerOptions } from './server';
export { accessibilityXml } from './accessibility-xml';
export { shlexSplit } from './shlex';
