// Command formats prints the range and precision of every format fp8lab
// knows, and where one value (0.3952 by default) lands in each of them.
//
//	go run ./examples/formats [-x 0.3952]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	x := flag.Float64("x", 0.3952, "the value to encode in every format")
	flag.Parse()
	if _, err := run(os.Stdout, *x); err != nil {
		fmt.Fprintln(os.Stderr, "formats:", err)
		os.Exit(1)
	}
}
