#!/usr/bin/env bash
# Builds the API documentation of the SDK, SDKTesting, Journal and Sandbox products with the toolchain's docc and
# fails on any warning (a broken ``symbol`` link, an undocumented parameter).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
rm -rf "$out/catalogs" "$out/site" "$out"/symbols-*
# dump-symbol-graph also tries the test modules, which it cannot load, and then exits 1: what
# counts is that the products' graphs were written.
# It shares the debug build of `make unit-tests`.
mkdir -p "$out"
swift package dump-symbol-graph --minimum-access-level public > "$out/build.log" 2>&1 || true
graphs=$(dirname "$(find .build -path "$out" -prune -o -name SDK.symbols.json -print | head -1)")
for module in SDK SDKTesting Journal Sandbox; do
    [ -f "$graphs/$module.symbols.json" ] || { cat "$out/build.log"; echo "docs-check: no symbol graph for $module" >&2; exit 1; }
done
status=0
for module in SDK SDKTesting Journal Sandbox; do
    mkdir -p "$out/catalogs/$module.docc" "$out/symbols-$module" "$out/site"
    cp "$graphs/$module.symbols.json" "$out/symbols-$module/"
    docc convert "$out/catalogs/$module.docc" --additional-symbol-graph-dir "$out/symbols-$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "engagement.$module" --fallback-bundle-version 1 \
        --output-path "$out/site/$module" --analyze > "$out/docc-$module.log" 2>&1
    if grep -E "warning:|error:" "$out/docc-$module.log"; then
        echo "docs-check: $module's documentation has the problems above" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "docs-check: the SDK, SDKTesting, Journal and Sandbox documentation builds without a warning"
exit $status
