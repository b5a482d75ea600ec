#!/bin/sh
# FFmpeg reading its input at the audio's own pace (-re, an input option: it applies to the -i that follows), so a
# packaging takes as long as the song plays however fast or loaded the machine is, and a test can act while one is
# surely still running without packaging a long song. PACED_FFMPEG names the real binary. `exec`: the process (and
# the pid its parent knows) is FFmpeg itself.
exec "$PACED_FFMPEG" -re "$@"
