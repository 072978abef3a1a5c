// OSWorld's getters for desktop apps' state (VLC, VS Code, the default video player). All reach the machine
// only through the Environment.
export {};
