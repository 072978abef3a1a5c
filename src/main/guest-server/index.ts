// Proctor's own server of OSWorld's VM control protocol (`proctor env serve`); see server.ts.
export { startGuestServer, isLoopback, type GuestServer, type GuestServerOptions } from './server';
export { accessibilityXml } from '../observe/osworld-xml';
export { shlexSplit } from '../text/shlex';
