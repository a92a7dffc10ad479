#!/usr/bin/env bash
# Builds the game binaries the browser test (test.mjs) serves: every example
# (examples/*.tgdl) and markup.tgdl (beside this script), each as OUT_DIR/NAME; and
# copies TGDLC there (as OUT_DIR/tgdlc), which serves a game on the interpreter.
#   bash tgdl-server/browser/build-bins.sh TGDLC OUT_DIR
# TGDLC is a built `tgdlc` (target/release/tgdlc); TGDLC and OUT_DIR are taken from
# the current directory, the games from the repository this script is in. Set
# TGDL_CACHE to share the generated crates' cache between builds (.ci/run does).
set -euo pipefail
if [ "$#" -ne 2 ]; then
    echo "usage: $0 TGDLC OUT_DIR" >&2
    exit 2
fi
if [ ! -x "$1" ] || [ -d "$1" ]; then
    echo "$0: $1 is not an executable tgdlc (cargo build --release -p tgdlc)" >&2
    exit 2
fi
tgdlc="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
count=0
for source in "$root"/examples/*.tgdl "$here/markup.tgdl"; do
    name="$(basename "$source" .tgdl)"
    start=$SECONDS
    "$tgdlc" build "$source" -o "$out/$name"
    echo "built $out/$name ($((SECONDS - start)) s)"
    count=$((count + 1))
done
cp "$tgdlc" "$out/tgdlc"
echo "built $count binaries in $out (and copied tgdlc there)"
