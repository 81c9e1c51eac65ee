// Command fp8-training trains a small MLP from scratch on two spirals, once
// in float32 and several times with every matrix product simulated in FP8
// (operands quantized and dequantized with package scaling), and prints and
// plots the loss curves side by side.
//
//	go run ./examples/fp8-training [-short] [-out loss.png]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	short := flag.Bool("short", false, "300 steps instead of 1500")
	out := flag.String("out", "fp8-training-loss.png", "PNG of the loss curves (empty: none)")
	flag.Parse()
	if _, err := run(os.Stdout, options{Short: *short, PNG: *out}); err != nil {
		fmt.Fprintln(os.Stderr, "fp8-training:", err)
		os.Exit(1)
	}
}
