// Command rounding shows how a value becomes an E4M3FN code: round to nearest
// even versus toward zero, saturating versus not (464 and 465), and the
// double-rounding trap of converting float64 through float32 first.
//
//	go run ./examples/rounding
package main

import (
	"fmt"
	"os"
)

func main() {
	if _, err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rounding:", err)
		os.Exit(1)
	}
}
