// OSWorld's getters for Chrome's settings, extensions and pages (family `browser`). All reach the machine only
// through the Environment.
export {};
