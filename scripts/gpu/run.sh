#!/usr/bin/env bash
# run.sh runs fp8lab's whole GPU check on a machine with an NVIDIA GPU and
# no Go toolchain, from the folder `go tool task gpu-bundle` builds:
#
#   bash run.sh OUTDIR            run every step, logs and JSON into OUTDIR
#   bash run.sh --dry-run OUTDIR  print the steps and their time limits only
#
# Steps: info, parity, the native/cuda tests, dump + the torch oracle, the
# fast-accumulation study, the benchmarks (kernels, and FP8 against BF16
# products from 256³ to 16384³), one linear layer under three plans with
# every kernel timed at 4096³, 8192³ and 16384³, and, when ncu is there and
# may read the counters, ncu on the quantize and Hadamard kernels. Each
# step has its own time limit; they add up to 7.5 minutes (the 2026-11-22
# H100 run took 126 s for the steps before linear), and a step that fails
# or times out never stops the others. OUTDIR/summary.txt has one line per
# step; the exit status is the number of failed steps.
set -u

dry=0
if [ "${1:-}" = "--dry-run" ]; then
	dry=1
	shift
fi
if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: bash run.sh [--dry-run] OUTDIR" >&2
	exit 2
fi
out=$1
here=$(cd "$(dirname "$0")" && pwd)
# FP8LAB_RUN_SCALE divides every time limit (tests use it to run fast).
scale=${FP8LAB_RUN_SCALE:-1}
if [ -e "$out" ] && [ ! -d "$out" ]; then
	echo "run.sh: $out exists and is not a directory" >&2
	exit 2
fi
if [ $dry = 0 ]; then
	mkdir -p "$out" || exit 2
	out=$(cd "$out" && pwd) # the steps run in the bundle's folder
	: >"$out/summary.txt" || exit 2
fi

failed=0
started=$(date +%s)

# step NAME SECONDS COMMAND...: runs COMMAND with stdout in OUTDIR/NAME.out
# and stderr in OUTDIR/NAME.log, killed after SECONDS/scale.
step() {
	local name=$1 limit=$(($2 / scale)) rc t0
	shift 2
	[ "$limit" -ge 1 ] || limit=1
	if [ $dry = 1 ]; then
		printf '%-8s %4ds  %s\n' "$name" "$limit" "$*"
		return 0
	fi
	echo "==> $name (limit ${limit}s): $*" >&2
	t0=$(date +%s)
	(cd "$here" && timeout -k 5 "$limit" "$@") >"$out/$name.out" 2>"$out/$name.log"
	rc=$?
	local verdict=ok
	case $rc in
	0) ;;
	124 | 137) verdict="TIMEOUT after ${limit}s" ;;
	*) verdict="FAIL (exit $rc)" ;;
	esac
	[ $rc = 0 ] || failed=$((failed + 1))
	printf '%-8s %-22s %4ds  %s\n' "$name" "$verdict" $(($(date +%s) - t0)) "$*" | tee -a "$out/summary.txt" >&2
	tail -n 3 "$out/$name.out" "$out/$name.log" 2>/dev/null | sed 's/^/    /' >&2
}

python=${PYTHON:-python3}
step info 10 ./fp8lab-gpu info --json
step parity 100 ./fp8lab-gpu parity --json
step tests 40 ./native-cuda.test -test.v -test.timeout 35s
step dump 20 ./fp8lab-gpu dump "$out/dump"
step oracle 30 "$python" torch_oracle.py "$out/dump"
step accum 40 ./fp8lab-gpu accum --json
step bench 60 ./fp8lab-gpu bench --json --gemm 256,512,1024,2048,4096,8192,16384
step linear 90 ./fp8lab-gpu linear --json --sizes 4096,8192,16384
# NCU names the profiler; by default ncu on PATH or in /usr/local/cuda/bin.
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
if [ -x "$ncu" ]; then
	step ncu 60 "$ncu" --kernel-name regex:fl_ --launch-count 300 \
		--metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum \
		./fp8lab-gpu bench --elements 33554432 --iters 1 --gemm none --train-shapes none
else
	step ncu 1 sh -c "echo 'ncu is not installed ($ncu)' >&2; exit 3"
fi
if [ $dry = 0 ]; then
	echo "run.sh: $failed failed step(s) in $(($(date +%s) - started))s; results in $out" | tee -a "$out/summary.txt" >&2
fi
exit $failed
