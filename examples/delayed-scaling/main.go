// Command delayed-scaling feeds a drifting tensor that spikes once through
// delayed scaling (Transformer Engine's recipe: the scale comes from the amax
// history of earlier steps) and through current scaling (this step's own
// amax), and shows where delayed scaling overflows while current does not.
//
//	go run ./examples/delayed-scaling [-short]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	short := flag.Bool("short", false, "fewer, smaller steps")
	flag.Parse()
	if _, err := run(os.Stdout, *short); err != nil {
		fmt.Fprintln(os.Stderr, "delayed-scaling:", err)
		os.Exit(1)
	}
}
