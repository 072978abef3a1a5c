// OSWorld's getters for Impress presentations (audio and background images inside a slide deck). All reach the
// machine only through the Environment.
export {};
