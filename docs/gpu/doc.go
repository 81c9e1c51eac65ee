// Package gpu holds what fp8lab-gpu measured on real GPUs, one folder per
// run (docs/gpu/DEVICE-YYYY-MM-DD/, as `bash gpu-run/run.sh OUTDIR` wrote it
// and a person copied it here), embedded so that the playground, the
// desktop app and `fp8lab render gpu` show real numbers on machines without
// a GPU; and the types of the files it reads:
//
//	info.json      fp8lab-gpu info --json: the device, its driver, cuBLASLt
//	bench.json     fp8lab-gpu bench --json: kernel bandwidths and products
//	accum.json     fp8lab-gpu accum --json: fast accumulation against K
//	emulated.json  the current emulator on accum.json's operands (written by
//	               `go test ./native/accum -run TestAccumulatorFitsShippedRuns -update`)
//	linear.json    fp8lab-gpu linear --json: one FP8 linear layer, three plans
//
// A run needs info.json; the others are optional. Adding a run is adding a
// folder: Runs finds it, and every view of the data follows.
//
// The package sits low in the import graph (standard library and scaling
// only) so that viz can read the runs without importing native.
package gpu
