// Command scaling quantizes one activation-like matrix with outliers (a few
// loud tokens and one loud feature) to FP8 with every scaling granularity and
// prints the SQNR of each.
//
//	go run ./examples/scaling
package main

import (
	"fmt"
	"os"
)

func main() {
	if _, err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "scaling:", err)
		os.Exit(1)
	}
}
