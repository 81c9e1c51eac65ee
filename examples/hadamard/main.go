// Command hadamard rotates an activation with outlier features by a
// block Hadamard transform before quantizing it: the outliers are spread
// over their block, the amax drops and the quantization error with it, and
// the product A·B is unchanged because (A·R)(Rᵀ·B) = A·B.
//
//	go run ./examples/hadamard
package main

import (
	"fmt"
	"os"
)

func main() {
	if _, err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hadamard:", err)
		os.Exit(1)
	}
}
