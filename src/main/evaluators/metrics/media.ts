// OSWorld's audio and video metrics (family `media`): files decoded by Debian's ffmpeg, tags read with
// music-metadata.
export {};
