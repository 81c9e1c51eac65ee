// Command dither quantizes the built-in mystery picture to two levels with
// every method and writes one PNG per method: round to nearest loses the
// picture, dithering brings it back.
//
//	go run ./examples/dither [-out DIR] [-size 256]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("out", "dither-out", "folder for the PNGs")
	size := flag.Int("size", 256, "side of the picture in pixels")
	flag.Parse()
	if _, err := run(os.Stdout, *out, *size); err != nil {
		fmt.Fprintln(os.Stderr, "dither:", err)
		os.Exit(1)
	}
}
