#!/usr/bin/env bash
# install-deps.sh: the Debian packages fp8lab's tests need, installed only when missing.
#
#   chromium                      real-browser tests (chromedp drives /usr/bin/chromium)
#   xvfb, xauth                   xvfb-run for the ebiten desktop tests
#   libgl1-mesa-dri               Mesa software OpenGL inside Xvfb
#   gcc g++ libc6-dev pkg-config  cgo; g++ also builds the host checks of the CUDA kernels
#   libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev
#   libxxf86vm-dev libasound2-dev ebiten's native (cgo, X11) build dependencies
#   nodejs                        runs GOOS=js tests via $(go env GOROOT)/lib/wasm/go_js_wasm_exec
#                                 (skipped when some `node` is already on PATH)
#   fonts-dejavu-core             optional: a font for chromium screenshots
#
# Idempotent and fast when everything is present: one dpkg-query, no apt-get update.
# Runs apt as root, through sudo when not root.
#
# Usage: scripts/install-deps.sh [--check]
#   --check  also smoke-test chromium (headless --dump-dom) and xvfb-run; done
#            automatically after something was installed.
set -euo pipefail

REQUIRED=(
	chromium xvfb xauth libgl1-mesa-dri
	gcc g++ libc6-dev pkg-config
	libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev
	libxxf86vm-dev libasound2-dev
	python3-numpy # native: scripts/gpu/torch_oracle.py --no-torch on the CPU backend's dump
)
OPTIONAL=(fonts-dejavu-core)

check=0
for arg in "$@"; do
	case "$arg" in
	--check) check=1 ;;
	*)
		echo "install-deps: unknown argument: $arg" >&2
		exit 2
		;;
	esac
done

log() { echo "install-deps: $*"; }
die() {
	echo "install-deps: ERROR: $*" >&2
	exit 1
}

smoke_test() {
	local out profile
	log "smoke test: chromium --headless --dump-dom about:blank"
	profile="$(mktemp -d)"
	out="$(timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --dump-dom about:blank 2>/dev/null)" || {
		rm -rf "$profile"
		die "chromium --headless failed"
	}
	rm -rf "$profile"
	case "$out" in
	*"<html>"*) ;;
	*) die "chromium --dump-dom printed no <html>: $out" ;;
	esac
	log "smoke test: xvfb-run -a true"
	timeout 60 xvfb-run -a true || die "xvfb-run -a true failed"
	log "smoke test: ok"
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	# Not Debian: say what is missing, install nothing.
	missing_cmds=()
	for c in chromium xvfb-run gcc pkg-config node; do
		command -v "$c" >/dev/null 2>&1 || missing_cmds+=("$c")
	done
	if [ ${#missing_cmds[@]} -gt 0 ]; then
		die "not a Debian system (no apt-get/dpkg-query), and these are not on PATH: ${missing_cmds[*]}"
	fi
	log "not a Debian system; chromium, xvfb-run, gcc, pkg-config and node are on PATH"
	[ "$check" = 1 ] && smoke_test
	exit 0
fi

# Packages not in state "installed" (one dpkg-query for all of them).
missing_of() {
	local status
	status="$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null || true)"
	local p
	for p in "$@"; do
		grep -qx "$p installed" <<<"$status" || echo "$p"
	done
}

mapfile -t missing < <(missing_of "${REQUIRED[@]}")
mapfile -t missing_opt < <(missing_of "${OPTIONAL[@]}")
if ! command -v node >/dev/null 2>&1; then
	missing+=(nodejs)
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_opt[@]} -eq 0 ]; then
	log "all present (${#REQUIRED[@]} packages + node)"
	[ "$check" = 1 ] && smoke_test
	exit 0
fi

SUDO=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null 2>&1 || die "not root and no sudo; please install: ${missing[*]} ${missing_opt[*]}"
	SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
APT=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q --no-install-recommends
	-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

t0=$(date +%s)
log "missing: ${missing[*]} ${missing_opt[*]}"
log "apt-get update"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
if [ ${#missing[@]} -gt 0 ]; then
	log "apt-get install ${missing[*]}"
	"${APT[@]}" install "${missing[@]}" || die "apt-get install failed"
fi
if [ ${#missing_opt[@]} -gt 0 ]; then
	log "apt-get install (optional) ${missing_opt[*]}"
	"${APT[@]}" install "${missing_opt[@]}" || log "warning: could not install ${missing_opt[*]} (optional)"
fi
log "installed in $(($(date +%s) - t0))s"
smoke_test
