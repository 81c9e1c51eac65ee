#!/usr/bin/env bash
# fuzz-all.sh: run every Go fuzz target in the module, one at a time, for FUZZTIME each.
#
# Packages are found with `grep -rl '^func Fuzz' --include=*_test.go`; the targets of each
# package are then listed by `go test -list` (so files excluded by build tags, helpers
# named Fuzz... that are not fuzz targets, and packages with several targets are all
# handled), and each one runs as
#   go test -run='^$' -fuzz='^NAME$' -fuzztime=$FUZZTIME ./pkg
# A failing target does not stop the others; the script exits 1 at the end if any failed.
# New failing inputs land in the package's testdata/fuzz/NAME/ (commit them as regressions).
#
# Usage: scripts/fuzz-all.sh [PKGDIR...]     (default: every package with a fuzz target)
# Env:   FUZZTIME   per-target time, default 60s (Go duration, or Nx for N iterations)
#        GOFLAGS    passed through to go test as usual
set -euo pipefail

FUZZTIME="${FUZZTIME:-60s}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ $# -gt 0 ]; then
	dirs=("$@")
else
	mapfile -t dirs < <(grep -rl '^func Fuzz' --include='*_test.go' \
		--exclude-dir=.git --exclude-dir=vendor --exclude-dir=testdata --exclude-dir=node_modules . |
		xargs -r -n1 dirname | sort -u)
fi

if [ ${#dirs[@]} -eq 0 ]; then
	echo "fuzz-all: no fuzz targets found"
	exit 0
fi

passed=()
failed=()
for dir in "${dirs[@]}"; do
	pkg="./${dir#./}"
	# `go test -list` prints the matching names, one a line, then "ok <pkg> ...".
	if ! listing="$(go test -list '^Fuzz' "$pkg" 2>&1)"; then
		echo "fuzz-all: FAIL listing fuzz targets of $pkg:"
		echo "$listing"
		failed+=("$pkg (does not build)")
		continue
	fi
	mapfile -t targets < <(grep -E '^Fuzz[A-Za-z0-9_]*$' <<<"$listing" || true)
	if [ ${#targets[@]} -eq 0 ]; then
		echo "fuzz-all: $pkg: no fuzz targets in the default build (build tags?), skipped"
		continue
	fi
	for name in "${targets[@]}"; do
		echo "==> fuzz $pkg $name ($FUZZTIME)"
		if go test -run='^$' -fuzz="^${name}\$" -fuzztime="$FUZZTIME" "$pkg"; then
			passed+=("$pkg $name")
		else
			failed+=("$pkg $name")
		fi
	done
done

echo "fuzz-all: ${#passed[@]} passed, ${#failed[@]} failed"
for f in "${failed[@]}"; do
	echo "fuzz-all: FAILED: $f"
done
[ ${#failed[@]} -eq 0 ]
