// Command stochastic-rounding adds a tiny update to a weight again and again
// in a low-precision format: round to nearest swallows every update (the
// weight stalls), stochastic rounding follows the exact sum on average.
//
//	go run ./examples/stochastic-rounding [-short]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	short := flag.Bool("short", false, "fewer steps")
	flag.Parse()
	if _, err := run(os.Stdout, *short); err != nil {
		fmt.Fprintln(os.Stderr, "stochastic-rounding:", err)
		os.Exit(1)
	}
}
