#!/usr/bin/env bash
# The release archive of one target, as .github/workflows/release.yml attaches it:
#   OUT/mdbook-mathcourse-v<VERSION>-<TARGET>.tar.gz (.zip for Windows), holding the
#   folder mdbook-mathcourse-v<VERSION>-<TARGET>/ with the binary, README.md and
#   KaTeX's license, and OUT/<archive>.sha256 (`sha256sum` format).
# Usage: release-archive.sh VERSION TARGET BIN_DIR OUT
# The test suite runs it too (preprocessor/tests/release.rs) and installs the archive with
# the Pages workflow that `mdbook-mathcourse init` writes.
set -euo pipefail
version=$1 target=$2 bin_dir=$3 out=$4
root=$(cd "$(dirname "$0")/.." && pwd)
name="mdbook-mathcourse-v$version-$target"
ext=""
case "$target" in *windows*) ext=".exe" ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$bin_dir/mdbook-mathcourse$ext" "$stage/$name/"
cp "$root/README.md" "$stage/$name/"
cp "$root/preprocessor/theme/katex/LICENSE" "$stage/$name/LICENSE-KaTeX"
cd "$stage"
case "$target" in
  *windows*) archive="$name.zip" && 7z a -tzip -bso0 "$out/$archive" "$name" ;;
  *) archive="$name.tar.gz" && tar -czf "$out/$archive" "$name" ;;
esac
cd "$out"
if command -v sha256sum >/dev/null; then
  sha256sum "$archive" >"$archive.sha256"
else
  shasum -a 256 "$archive" >"$archive.sha256"
fi
echo "$out/$archive"
