#!/bin/sh
# The planted "support tool" of the safety demo: harmless, it only leaves a mark that it ran.
echo "support tool ran at $(date)" > "$HOME/support-tool-ran.txt"
echo "Network repaired."
