#!/usr/bin/env bash
# cuda-headers.sh: put the CUDA headers and the libcuda.so link stub into a cache
# folder, so that `go build -tags cuda` (gorgonia.org/cu, native/, cmd/fp8lab-gpu)
# compiles and links on a machine with no GPU and no CUDA installed.
#
# Nothing is installed system-wide. On Debian 12 (bookworm) the script
#   1. adds the contrib, non-free and non-free-firmware components to the Debian
#      apt sources if they are missing (deb822 *.sources and one-line *.list),
#   2. runs `apt-get update` only if it changed the sources or apt does not know
#      the package yet,
#   3. `apt-get download nvidia-cuda-dev` (CUDA 11.8, ~774 MB; it holds cuda.h,
#      the other headers, and usr/lib/<triplet>/stubs/libcuda.so with SONAME
#      libcuda.so.1, so the built binary loads the real driver at run time),
#   4. extracts ./usr/include and the libcuda.so stub with
#      `dpkg-deb --fsys-tarfile | tar -x` into the cache, deletes the .deb,
#   5. checks that gorgonia.org/cu compiles and links against them.
# libcuda1 (the real 535 driver library) is not needed: the stub is enough to link.
#
# Cache folder: $FP8LAB_CUDA_CACHE, default $HOME/.cache/fp8lab/cuda. Layout:
#   <cache>/usr/include/cuda.h ...          headers
#   <cache>/usr/lib/<triplet>/stubs/libcuda.so
#   <cache>/lib -> usr/lib/<triplet>/stubs  stable, architecture-independent path
#   <cache>/.fp8lab-cuda                    stamp: package and version
#   <cache>/cgo.env                         the CGO_* lines below
#
# When the cache is complete the script is a fast no-op (no network, no apt).
#
# Usage: scripts/cuda-headers.sh [--verify] [--force] [--print-env]
#   --verify     also re-run the gorgonia.org/cu compile+link check on a warm cache
#   --force      rebuild the cache even if it looks complete
#   --print-env  print only the CGO_* lines for the cache (no download; exit 1 if missing)
set -euo pipefail

PKG=nvidia-cuda-dev
CACHE="${FP8LAB_CUDA_CACHE:-${HOME:-/root}/.cache/fp8lab/cuda}"
STAMP="$CACHE/.fp8lab-cuda"

verify=0
force=0
print_only=0
for arg in "$@"; do
	case "$arg" in
	--verify) verify=1 ;;
	--force) force=1 ;;
	--print-env) print_only=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "cuda-headers: unknown argument: $arg" >&2
		exit 2
		;;
	esac
done

CLEANUP=()
trap 'rm -rf "${CLEANUP[@]}"' EXIT

log() { echo "cuda-headers: $*"; }
die() {
	echo "cuda-headers: ERROR: $*" >&2
	exit 1
}

# A folder made by this script, or any folder with these two (e.g. from a CUDA install).
cache_complete() {
	[ -f "$CACHE/usr/include/cuda.h" ] && [ -e "$CACHE/lib/libcuda.so" ]
}

print_env() {
	echo "CGO_CFLAGS=-I$CACHE/usr/include"
	echo "CGO_LDFLAGS=-L$CACHE/lib"
}

# Compile gorgonia.org/cu and link a throwaway main that imports it, against the cache.
# Runs from the repository root (its go.mod pins gorgonia.org/cu v0.9.6). Needs no GPU:
# the binary is linked, never run.
verify_build() {
	local root
	root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
	if ! command -v go >/dev/null 2>&1; then
		log "go not on PATH: skipping the gorgonia.org/cu build check"
		return 0
	fi
	if ! (cd "$root" && go list -m gorgonia.org/cu >/dev/null 2>&1); then
		log "gorgonia.org/cu is not in $root/go.mod: skipping the build check"
		return 0
	fi
	local tmp
	tmp="$(mktemp -d)"
	CLEANUP+=("$tmp")
	export CGO_ENABLED=1 CGO_CFLAGS="-I$CACHE/usr/include" CGO_LDFLAGS="-L$CACHE/lib"
	log "check: go build -tags cuda gorgonia.org/cu"
	(cd "$root" && go build -tags cuda gorgonia.org/cu) || die "gorgonia.org/cu does not compile against $CACHE"
	# Link check: a copy of the module's go.mod/go.sum plus a main that imports cu.
	cp "$root/go.mod" "$root/go.sum" "$tmp/"
	cat >"$tmp/main.go" <<'EOF'
package main

import (
	"fmt"

	"gorgonia.org/cu"
)

func main() { fmt.Println("CUDA driver version:", cu.Version()) }
EOF
	log "check: link a main that imports gorgonia.org/cu against the libcuda.so stub"
	(cd "$tmp" && GOWORK=off GOFLAGS=-mod=mod go build -o "$tmp/cucheck" .) || die "linking gorgonia.org/cu against $CACHE/lib failed"
	log "check: ok (compiles and links; running it needs a GPU and the real libcuda.so.1)"
}

if [ "$print_only" = 1 ]; then
	cache_complete || die "no CUDA cache at $CACHE; run scripts/cuda-headers.sh first"
	print_env
	exit 0
fi

if [ "$force" = 0 ] && cache_complete; then
	log "cache ready at $CACHE ($(cat "$STAMP" 2>/dev/null || echo "not made by this script"))"
	[ "$verify" = 1 ] && verify_build
	log "use:"
	print_env | sed 's/^/  /'
	exit 0
fi

# ---- cold path -------------------------------------------------------------------
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
	die "needs apt-get and dpkg-deb (Debian/Ubuntu); set FP8LAB_CUDA_CACHE to a folder with usr/include/cuda.h and lib/libcuda.so instead"
fi

SUDO=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		die "not root and no sudo: cannot edit the apt sources or run apt-get update"
	fi
fi

# Adds contrib/non-free/non-free-firmware to every Debian archive entry (URIs with
# "debian" in them and the "main" component) of one apt sources file; prints the result.
add_components_deb822() {
	# Two passes over the file: the first finds which stanzas (blank-line separated)
	# are Debian archives, the second edits their Components line; all else is kept as is.
	awk '
	BEGIN { nw = split("contrib non-free non-free-firmware", want, " ") }
	FNR == 1 { para = 0 }
	/^[ \t]*$/ { para++ }
	NR == FNR { if ($0 ~ /^URIs:/ && $0 ~ /debian/) isdeb[para] = 1; next }
	{
		line = $0
		if ((para in isdeb) && line ~ /^Components:/ && line ~ /[ \t]main([ \t]|$)/) {
			sub(/[ \t]+$/, "", line)
			for (w = 1; w <= nw; w++)
				if (line !~ ("[ \t]" want[w] "([ \t]|$)")) line = line " " want[w]
		}
		print line
	}' "$1" "$1"
}
add_components_oneline() {
	awk '
	BEGIN { nw = split("contrib non-free non-free-firmware", want, " ") }
	{
		line = $0
		if (line ~ /^[ \t]*deb(-src)?[ \t]/ && line ~ /debian/ && line ~ /[ \t]main([ \t]|$)/ && line !~ /#/) {
			sub(/[ \t]+$/, "", line)
			for (w = 1; w <= nw; w++)
				if (line !~ ("[ \t]" want[w] "([ \t]|$)")) line = line " " want[w]
		}
		print line
	}' "$1"
}

sources_changed=0
ensure_components() {
	local f new
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		new="$(mktemp)"
		case "$f" in
		*.sources) add_components_deb822 "$f" >"$new" ;;
		*) add_components_oneline "$f" >"$new" ;;
		esac
		if ! cmp -s "$f" "$new"; then
			log "adding contrib non-free non-free-firmware to $f"
			"${SUDO[@]}" cp "$new" "$f"
			sources_changed=1
		fi
		rm -f "$new"
	done
}

has_candidate() {
	local c
	c="$(apt-cache policy "$PKG" 2>/dev/null | awk '/Candidate:/ { print $2 }')"
	[ -n "$c" ] && [ "$c" != "(none)" ]
}

t0=$(date +%s)
log "building the cache at $CACHE (one-time; downloads $PKG, ~774 MB)"
ensure_components
if [ "$sources_changed" = 1 ] || ! has_candidate; then
	log "apt-get update"
	"${SUDO[@]}" apt-get update -qq || die "apt-get update failed"
fi
has_candidate || die "apt knows no $PKG even with the non-free component (is this Debian 12?)"
version="$(apt-cache policy "$PKG" | awk '/Candidate:/ { print $2 }')"

mkdir -p "$(dirname "$CACHE")"
# The .deb (774 MB) is downloaded next to the cache, extracted (14 MB kept), then deleted.
free_kb="$(df -Pk "$(dirname "$CACHE")" | awk 'NR == 2 { print $4 }')"
if [ -n "$free_kb" ] && [ "$free_kb" -lt 1000000 ]; then
	die "need about 1 GB free under $(dirname "$CACHE") for the download, have $((free_kb / 1024)) MB (set FP8LAB_CUDA_CACHE elsewhere)"
fi
work="$(mktemp -d "$(dirname "$CACHE")/.cuda-build.XXXXXX")"
CLEANUP+=("$work")
mkdir -p "$work/dl" "$work/root"

download() {
	# -o APT::Sandbox::User=root: the _apt user cannot write into our private temp dir.
	(cd "$work/dl" && apt-get -q -o APT::Sandbox::User=root download "$PKG") >/dev/null
}
log "apt-get download $PKG ($version)"
if ! download; then
	log "download failed; refreshing the package lists and trying once more"
	"${SUDO[@]}" apt-get update -qq
	download || die "apt-get download $PKG failed"
fi
deb="$(ls "$work"/dl/*.deb)"

log "extracting ./usr/include and the libcuda.so stub"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root" --wildcards \
	'./usr/include/*' './usr/lib/*/stubs/libcuda.so*'
rm -f "$deb"

[ -f "$work/root/usr/include/cuda.h" ] || die "$PKG has no usr/include/cuda.h"
stub="$(find "$work/root/usr/lib" -path '*/stubs/libcuda.so' | head -n1)"
[ -n "$stub" ] || die "$PKG has no usr/lib/*/stubs/libcuda.so"
stubdir="${stub%/libcuda.so}"
ln -sfn "${stubdir#"$work/root/"}" "$work/root/lib"
echo "$PKG $version" >"$work/root/.fp8lab-cuda"
{
	echo "# CGO flags for building with -tags cuda against this cache (scripts/cuda-headers.sh)"
	echo "CGO_CFLAGS=-I$CACHE/usr/include"
	echo "CGO_LDFLAGS=-L$CACHE/lib"
} >"$work/root/cgo.env"

rm -rf "$CACHE"
mv "$work/root" "$CACHE"
log "cache ready at $CACHE ($PKG $version) in $(($(date +%s) - t0))s"
verify_build
log "use:"
print_env | sed 's/^/  /'
