// OSWorld's getters for the desktop itself (window size, terminal output, wallpaper, accessibility tree). All
// reach the machine only through the Environment.
export {};
